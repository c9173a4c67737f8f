import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FetchHttpClient,
  FolderSink,
  NoAnswerError,
  JsonFileResumeStore,
  ledgerKeyOf,
  runDownload,
  systemClock,
  XxhashFileHasher,
  type Clock,
  type DownloadDescriptor,
  type DownloadLedger,
  type DownloadOutcome,
  type DownloadEvent,
  type HttpClient,
} from '@filerunner/transfer/node';
import {
  downloadDescriptor,
  expectUnpackedIn,
  keptBytesOf,
  sentToReceiver,
  tempFolders,
} from './engine-fixtures';
import { objectOffsetOf, planDownload } from '@filerunner/transfer';
import { startTestServer, type TestServer } from './harness';
import { everyKindOfFile, type TestFile } from './uploader';

// The download engine through its Node entry against the real server and the embedded store:
// files unpacked into a folder on disk, byte for byte, checked against the hashes the upload
// engine recorded, while ranged requests fail and answers are cut mid-body.
//
// Here the faults are made on the client's side of the wire: requests that never get an answer,
// and real answers cut after half their bytes. The server's own injected faults (STORE_FAULTS,
// which reach the download route too: 503s, cuts, stalls) are engine-download-faults.test.ts.

/** Fails every `failEvery`th ranged GET before it leaves, and cuts every `cutEvery`th answer. */
function faultyHttp(inner: HttpClient, faults: { failEvery: number; cutEvery: number }) {
  const counts = { gets: 0, failed: 0, cut: 0 };
  const http: HttpClient = {
    async request(request) {
      if (request.method !== 'GET') return inner.request(request);
      const n = ++counts.gets;
      if (n % faults.failEvery === 0) {
        counts.failed++;
        throw new NoAnswerError('NETWORK_ERROR', request.method, request.url);
      }
      const response = await inner.request(request);
      if (n % faults.cutEvery !== 0 || !response.body) return response;
      counts.cut++;
      const [, first, last] = /(\d+)-(\d+)\//.exec(response.header('content-range')!)!;
      const half = Math.max(1, Math.floor((Number(last) - Number(first) + 1) / 2));
      return { ...response, body: () => cutAfter(response.body!(), half) };
    },
  };
  return { http, counts };
}

/** The stream's first `limit` bytes, then an error, as a connection cut mid-body. */
function cutAfter(stream: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let passed = 0;
  return new ReadableStream({
    async pull(controller) {
      if (passed >= limit) {
        await reader.cancel();
        return controller.error(new TypeError('terminated'));
      }
      const read = await reader.read();
      if (read.done) return controller.close();
      const bytes = read.value.subarray(0, limit - passed);
      passed += bytes.length;
      controller.enqueue(bytes);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Flips one byte of the object, at `offset`, in whichever answer carries it. */
function tamperedHttp(inner: HttpClient, offset: number): HttpClient {
  return {
    async request(request) {
      const response = await inner.request(request);
      if (request.method !== 'GET' || !response.body) return response;
      const [, first] = /(\d+)-(\d+)\//.exec(response.header('content-range')!)!;
      let at = Number(first);
      const flipped = response.body().pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(bytes, controller) {
            if (offset >= at && offset < at + bytes.length) {
              bytes = Uint8Array.from(bytes);
              bytes[offset - at]! ^= 0xff;
            }
            at += bytes.length;
            controller.enqueue(bytes);
          },
        }),
      );
      return { ...response, body: () => flipped };
    },
  };
}

/**
 * Real time, but retry delays and the engine's timers cut to a few milliseconds: the stall and
 * worker timeouts (minutes) never fire by accident, and retries cost nothing.
 */
const quickClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 20), signal),
};

let server: TestServer;
let files: TestFile[];
let descriptor: DownloadDescriptor;
const folders = tempFolders('fr-download-');

beforeAll(async () => {
  server = await startTestServer();
  const { slabbed, all } = everyKindOfFile();
  // Deep and long, beside the Unicode, empty, slab-packed and segmented ones.
  const sent = await sentToReceiver(server, 'Download engine', {
    slabbed,
    all: [...all, { path: `a/b/c/d/e/${'long-name-'.repeat(12)}.txt`, bytes: Buffer.from('deep') }],
  });
  files = sent.files;
  descriptor = await downloadDescriptor(server, sent.origin, sent.fx.receiver, sent.pkg.slug);
});
afterAll(async () => {
  await server?.close();
  await folders.removeAll();
});

const newFolder = () => folders.make();
const expectFilesIn = (folder: string) => expectUnpackedIn(folder, files);

function download(folder: string, more: Partial<Parameters<typeof runDownload>[0]> = {}) {
  return runDownload({
    descriptor,
    sink: new FolderSink(folder, 'unpack'),
    http: new FetchHttpClient(),
    clock: quickClock,
    hasher: new XxhashFileHasher(),
    // Small chunks, so the package is many ranges cut inside the slab and the segments.
    options: { chunkSize: 16 * 1024, concurrentChunks: 4, retries: 5 },
    ...more,
  });
}

const checkedAll = (outcome: DownloadOutcome) =>
  outcome.verifiedFiles + outcome.unverifiedFiles.length;

describe('runDownload into a folder, from the real server', () => {
  it('unpacks every kind of file byte for byte while requests fail and are cut', async () => {
    const folder = await newFolder();
    const { http, counts } = faultyHttp(new FetchHttpClient(), { failEvery: 5, cutEvery: 3 });
    const events: DownloadEvent[] = [];
    const outcome = await download(folder, { http, onEvent: (e) => events.push(e) });

    expect(outcome.failedFiles).toEqual([]);
    // The package's files, and its ASC MHL (the hash list and its chain) the tar ends with.
    expect(checkedAll(outcome)).toBe(files.length + 2);
    expect(outcome.verifiedFiles).toBeGreaterThan(0);
    await expectFilesIn(folder);
    expect(counts.failed).toBeGreaterThan(2);
    expect(counts.cut).toBeGreaterThan(2);
    const retried = events.filter((e) => e.type === 'chunk-retried');
    expect(retried.length).toBe(counts.failed + counts.cut);
  });

  it('names a file whose bytes were changed on the way, hashed as they were written', async () => {
    // The largest file: written by several chunks at once, so its bytes land out of order.
    const members = descriptor.tar!.files;
    const largest = members.reduce((a, b) => (b.size > a.size ? b : a));
    expect(largest.size).toBeGreaterThan(4 * 16 * 1024);
    const start = objectOffsetOf(planDownload(descriptor, 'unpack'), members.indexOf(largest));
    const folder = await newFolder();
    const outcome = await download(folder, {
      http: tamperedHttp(new FetchHttpClient(), start + largest.size - 100),
    });
    expect(outcome.failedFiles).toEqual([
      { path: largest.path, kind: 'verification', message: expect.stringContaining(largest.path) },
    ]);
    expect(checkedAll(outcome)).toBe(files.length + 1);
    // The changed file is not left under its name; the others are whole.
    const names = await readdir(folder, { recursive: true });
    expect(names).not.toContain(largest.path);
    expect(names.filter((n) => n.endsWith('.filerunner-part'))).toEqual([]);
  });

  it('keeps the .tar whole in tar mode, members checked inside it', async () => {
    const folder = await newFolder();
    const outcome = await download(folder, { sink: new FolderSink(folder, 'tar') });
    expect(outcome.failedFiles).toEqual([]);
    expect(outcome.fetchedBytes).toBe(descriptor.size);
    const tar = await readFile(path.join(folder, descriptor.filename));
    expect(tar.length).toBe(descriptor.size);
  });

  it('resumes a download stopped half-way, fetching only the rest', async () => {
    const folder = await newFolder();
    const ledgerFile = path.join(folder, '..', `${path.basename(folder)}-ledger.json`);
    folders.track(ledgerFile);
    const ledger = new JsonFileResumeStore<DownloadLedger>(ledgerFile);
    const stop = new AbortController();
    const firstRun = download(folder, {
      ledger,
      signal: stop.signal,
      options: { chunkSize: 16 * 1024, concurrentChunks: 1 },
      onProgress: (p) => p.receivedBytes > p.totalBytes / 2 && stop.abort(),
    });
    await expect(firstRun).rejects.toThrow();

    const kept = await ledger.get(ledgerKeyOf(descriptor, 'unpack'));
    const sizes = descriptor.tar!.files.map((f) => f.size);
    const keptBytes = keptBytesOf(kept!, sizes);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(keptBytes).toBeGreaterThan(total / 2);

    const outcome = await download(folder, { ledger });
    expect(outcome.failedFiles).toEqual([]);
    await expectFilesIn(folder);
    // Only the files' missing bytes and the framing between them came the second time.
    expect(outcome.fetchedBytes).toBeLessThan(descriptor.size - keptBytes + 8 * 1024);
    expect(outcome.fetchedBytes).toBeGreaterThanOrEqual(total - keptBytes);
    expect(await ledger.keys()).toEqual([]);
  });
});
