import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { createXXHash128, xxhash128 } from 'hash-wasm';
import { expect } from 'vitest';
import type {
  ByteSource,
  Clock,
  DownloadDescriptor,
  DownloadLedger,
  HttpClient,
} from '@filerunner/transfer/node';
import { packageFiles, packages } from '../src/db/schema';
import type { TestServer } from './harness';
import { everyKindOfFile, listeningSender, type TestFile } from './uploader';

const MiB = 1024 * 1024;

/**
 * Writes a file of `size` bytes, one MiB at a time: each MiB is the same patterned block with
 * its index and the seed stamped at its start, so a misplaced or repeated MiB shows, and the
 * file is never held in memory.
 */
export async function writePatternedFile(filePath: string, size: number, seed: number) {
  await mkdir(path.dirname(filePath), { recursive: true });
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < MiB; i++) block[i] = (i * 131 + seed * 17 + (i >> 10)) & 0xff;
  const file = await open(filePath, 'w');
  try {
    for (let offset = 0, index = 0; offset < size; offset += MiB, index++) {
      block.writeUInt32BE(index, 0);
      block.writeUInt32BE(seed, 4);
      await file.write(block, 0, Math.min(MiB, size - offset), offset);
    }
  } finally {
    await file.close();
  }
}

/**
 * `count` small files in nested folders (`<root>/d07/s3/f00123.bin`), 0 to 20 kB each, all
 * different.
 */
export async function writeSmallFiles(root: string, count: number) {
  for (let i = 0; i < count; i++) {
    const size = (i * 7919) % 20_000;
    const bytes = Buffer.alloc(size);
    for (let j = 0; j < size; j++) bytes[j] = (j * 29 + i * 13 + (j >> 9)) & 0xff;
    const file = path.join(
      root,
      `d${String(i % 20).padStart(2, '0')}`,
      `s${i % 7}`,
      `f${String(i).padStart(5, '0')}.bin`,
    );
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
  }
}

async function digestsOf(stream: AsyncIterable<Uint8Array>) {
  const sha256 = createHash('sha256');
  for await (const chunk of stream) sha256.update(chunk);
  return sha256.digest('hex');
}

/** SHA-256 of each source's bytes, as the sender has them. */
export async function sourceDigests(sources: readonly ByteSource[]): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  await inParallel(sources, 8, async (source) => {
    const stream = source.slice(0, source.size).stream() as AsyncIterable<Uint8Array>;
    digests.set(source.path, await digestsOf(stream));
  });
  return digests;
}

/** The xxh128 of each source, computed apart from the engine (whole, or streamed when large). */
export async function sourceXxh128(sources: readonly ByteSource[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const source of sources) {
    const blob = source.slice(0, source.size);
    if (source.size <= 64 * MiB) {
      hashes.set(source.path, await xxhash128(new Uint8Array(await blob.arrayBuffer())));
      continue;
    }
    const hasher = await createXXHash128();
    hasher.init();
    for await (const chunk of blob.stream() as AsyncIterable<Uint8Array>) hasher.update(chunk);
    hashes.set(source.path, hasher.digest('hex'));
  }
  return hashes;
}

/**
 * What storage holds for each file of a sent package, read back through the storage driver
 * from the object (or slab range) the server recorded, with the etag it recorded: SHA-256 of
 * the bytes and the reported xxh128, by user path.
 */
export async function storedFiles(server: TestServer, slug: string) {
  const [pkg] = await server.ctx.db.select().from(packages).where(eq(packages.slug, slug));
  const rows = await server.ctx.db
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, pkg!.id), eq(packageFiles.state, 'stored')));
  const stored = new Map<string, { sha256: string; xxh128: string | null }>();
  await inParallel(rows, 16, async (row) => {
    const location = { container: pkg!.container, key: row.objectKey! };
    let sha256 = createHash('sha256').digest('hex');
    if (row.size > 0 || row.slabStart === null) {
      const range =
        row.slabStart === null ? undefined : { offset: row.slabStart, length: row.size };
      const stream = await server.ctx.storage.read(location, range, { ifMatch: row.etag! });
      sha256 = await digestsOf(stream);
    }
    stored.set(row.userPath, { sha256, xxh128: row.xxh128 });
  });
  return { status: pkg!.status, stored };
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One request the engine made, as the counting client saw it. */
export interface SeenRequest {
  method: string;
  /** The URL's path (no query: it holds signatures). */
  path: string;
  /** The answer's status; 0 when it got none (a cut connection, an abort). */
  status: number;
}

/**
 * Wraps a client to log every request it sends (started and answered), so tests count what went
 * to storage. `onAnswer` sees each answered request as it comes.
 */
export function countingHttpClient(inner: HttpClient, onAnswer?: (seen: SeenRequest) => void) {
  const started: SeenRequest[] = [];
  const answered: SeenRequest[] = [];
  const http: HttpClient = {
    async request(request) {
      const seen = { method: request.method, path: new URL(request.url).pathname, status: 0 };
      started.push(seen);
      try {
        const response = await inner.request(request);
        seen.status = response.status;
        return response;
      } finally {
        answered.push(seen);
        onAnswer?.(seen);
      }
    },
  };
  return { http, started, answered };
}

/** Requests to storage (the `/v1/` account paths) that wrote an object: PUTs and FormPosts. */
export const isStorageWrite = (seen: SeenRequest) =>
  seen.path.startsWith('/v1/') && (seen.method === 'PUT' || seen.method === 'POST');

/**
 * A clock whose sleeps take no time but move its `now` on, so retry delays and the abort
 * policy's windows pass at once while requests still take their real time.
 */
export function fastClock(): Clock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      skipped += ms;
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    },
  };
}

/**
 * A package the upload engine sent to the receiver of a fresh contract fixture on the listening
 * test server: every kind of file (see everyKindOfFile) unless `files` names others.
 */
export async function sentToReceiver(
  server: TestServer,
  name: string,
  files?: { all: TestFile[]; slabbed: TestFile[] },
) {
  const sending = await listeningSender(server, name);
  const { slabbed, all } = files ?? everyKindOfFile();
  const pkg = await sending.sender.createOf(all, {
    contract: sending.fx.contract.slug,
    name,
    recipients: [{ id: sending.fx.receiver.user.id }],
  });
  await sending.sender.send(all, { pkg }, { slabbed });
  return { ...sending, pkg, files: all };
}

/**
 * The download engine's descriptor of a grant the receiver asked for: the package's tar, or with
 * `file` that one file (its grant carries no hash). The grant names PUBLIC_URL; the descriptor
 * points at the listening server at `origin` instead.
 */
export async function downloadDescriptor(
  server: TestServer,
  origin: string,
  receiver: { headers: Record<string, string> },
  slug: string,
  file?: string,
): Promise<DownloadDescriptor> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/packages/${slug}/download/${file ?? ''}`,
    headers: receiver.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  const grant = response.json();
  const url = new URL(grant.download_url as string);
  const common = {
    downloadUrl: origin + url.pathname + url.search,
    filename: grant.filename,
    size: grant.size,
  };
  return file
    ? { ...common, xxh128: null }
    : { ...common, tar: { mtime: grant.mtime, files: grant.files } };
}

/** Temporary folders for a test file's downloads; `removeAll` (after the tests) removes them. */
export function tempFolders(prefix: string) {
  const made: string[] = [];
  return {
    async make() {
      const folder = await mkdtemp(path.join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    },
    /** Also removes `file` (a ledger beside a folder) at the end. */
    track(file: string) {
      made.push(file);
    },
    async removeAll() {
      for (const folder of made) await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Every file unpacked into `folder` byte for byte, and no part file left behind. */
export async function expectUnpackedIn(folder: string, files: readonly TestFile[]) {
  for (const file of files) {
    const found = await readFile(path.join(folder, ...file.path.split('/')));
    expect(found.equals(file.bytes), file.path).toBe(true);
  }
  const names = await readdir(folder, { recursive: true });
  expect(names.filter((n) => n.endsWith('.filerunner-part'))).toEqual([]);
}

/**
 * The files' bytes an unfinished download's ledger says are on disk: the whole of each member
 * done, and the ranges of those begun. `sizes` are the tar's members in order.
 */
export function keptBytesOf(ledger: DownloadLedger, sizes: readonly number[]): number {
  let kept = 0;
  for (const [index, target] of Object.entries(ledger.targets)) {
    if (target.done) kept += sizes[Number(index)] ?? 0;
    for (const [start, end] of target.ranges ?? []) kept += end - start;
  }
  return kept;
}

/** Bytes of downloads the server has sent so far, as its metrics count them once recorded. */
export async function downloadedBytes(server: TestServer): Promise<number> {
  await server.ctx.pendingWork.settled();
  const counter = server.ctx.metrics.registry.getSingleMetric('filerunner_downloaded_bytes_total')!;
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
}
