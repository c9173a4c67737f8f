import { createHash } from 'node:crypto';
import type { BulkResponse, SenderPackage } from '@filerunner/protocol';
import {
  defaultUploadLimits,
  nodeUploadPorts,
  plannedObjects,
  planSlabs,
  planUpload,
  UploadRunner,
  type ByteSource,
  type HttpClient,
  type UploadLimits,
  type UploadOptions,
  type UploadPlan,
  type UploadPorts,
  type UploadRecord,
} from '@filerunner/transfer/node';
import { contractFixture, groupOfSenderAndReceiver, type TestServer } from './harness';

/** A file the test sends: its path in the package and its bytes. */
export interface TestFile {
  path: string;
  bytes: Buffer;
}

export const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** Deterministic bytes of a given size, different per seed, so mixed-up files show. */
export function fileBytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return out;
}

/**
 * The engine's limits scaled down for small test files: over 100 kB is a large file, sent in
 * 64 KiB segments.
 */
export const testUploadLimits: UploadLimits = {
  ...defaultUploadLimits,
  largeFileThreshold: 100_000,
  baseChunkSize: 64 * 1024,
};

/**
 * One package holding every kind of upload the engine makes: small files sent by FormPost, small
 * files packed into one slab object, and a large file sent as segments joined by a manifest.
 */
export function everyKindOfFile() {
  const small: TestFile[] = [
    { path: 'Brief/notes.txt', bytes: fileBytes(1200, 1) },
    { path: 'Brief/Präsentation über.pdf', bytes: fileBytes(70_000, 2) },
  ];
  const slabbed: TestFile[] = [
    { path: 'icons/a.png', bytes: fileBytes(300, 3) },
    { path: 'icons/b.png', bytes: fileBytes(0, 4) },
    { path: 'icons/c.png', bytes: fileBytes(5000, 5) },
  ];
  // With testUploadLimits, the engine cuts the large file into these segments.
  const segments = [fileBytes(64 * 1024, 6), fileBytes(64 * 1024, 7), fileBytes(999, 8)];
  const large: TestFile = { path: 'video/cut.mov', bytes: Buffer.concat(segments) };
  return { small, slabbed, segments, large, all: [...small, ...slabbed, large] };
}

/** A test file as the engine's byte source (the bytes in memory; the CLI's come from disk). */
export function memorySource(file: TestFile, lastModified = 1_700_000_000_000): ByteSource {
  return {
    path: file.path,
    size: file.bytes.length,
    lastModified,
    slice: (start, end) => new Blob([file.bytes.subarray(start, end)]),
  };
}

/**
 * The plan of `files` with test limits; the files in `slabbed` go into slab objects, the others
 * as the planner decides (FormPost batches, segments), so one package holds every kind.
 */
export function testPlan(files: TestFile[], slabbed: TestFile[] = []): UploadPlan {
  const inSlabs = new Set(slabbed.map((f) => f.path));
  const plan = planUpload(
    files.filter((f) => !inSlabs.has(f.path)).map((f) => memorySource(f)),
    { limits: testUploadLimits },
  );
  if (slabbed.length === 0) return plan;
  const slabs = planSlabs(
    slabbed.map((f) => memorySource(f)),
    testUploadLimits,
  );
  return {
    ...plan,
    // `bulk` lists every object the plan PUTs, the slabs as well.
    bulk: { ...plan.bulk, objects: plannedObjects(slabs, plan.largeFiles) },
    slabs,
    totalFiles: plan.totalFiles + slabbed.length,
    totalBytes: plan.totalBytes + slabbed.reduce((sum, f) => sum + f.bytes.length, 0),
  };
}

/**
 * An HTTP client that sends embedded-store requests to the listening test server: grants name
 * the configured PUBLIC_URL, and the signatures cover only the path (as in Swift), so only the
 * origin changes. API calls and Swift URLs pass unchanged. Every answer of `bulk` is kept, so
 * tests can see the grants the engine used.
 */
export function testHttpClient(server: TestServer, origin: string, inner: HttpClient) {
  const publicOrigin = new URL(server.ctx.config.publicUrl).origin;
  const grants: BulkResponse[] = [];
  const http: HttpClient = {
    async request(request) {
      const url = new URL(request.url);
      const target = url.origin === publicOrigin ? origin + url.pathname + url.search : request.url;
      const response = await inner.request({ ...request, url: target });
      if (request.url.endsWith('/bulk/') && response.status === 200) {
        grants.push(JSON.parse(await response.text()) as BulkResponse);
      }
      return response;
    },
  };
  return { http, grants };
}

/**
 * Sends packages over real HTTP against a listening test server, as a sender would: `send`
 * runs the upload engine's Node entry; the other helpers make single calls for the tests that
 * send something the engine never would (a half package, a tampered report).
 */
/**
 * Listens on a free port and makes a contract whose sender and receiver share the group `group`;
 * answers the server's origin, the contract fixture and an uploader for its sender.
 */
export async function listeningSender(server: TestServer, group: string) {
  const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const fx = await contractFixture(server);
  await groupOfSenderAndReceiver(server, fx, group);
  return { origin, fx, sender: new TestUploader(server, origin, fx.sender.headers) };
}

export class TestUploader {
  constructor(
    private readonly server: TestServer,
    private readonly origin: string,
    private readonly headers: Record<string, string>,
  ) {}

  /**
   * Sends `files` through the upload engine and waits until it settles (COMPLETED, or the
   * status `until` accepts). The package is `pkg` when given, else created from `create`.
   */
  async send(
    files: TestFile[],
    target: { pkg: SenderPackage } | { create: Record<string, unknown> & { contract: string } },
    options: {
      slabbed?: TestFile[];
      ports?: Partial<UploadPorts>;
      runner?: Partial<UploadOptions>;
    } = {},
  ): Promise<{ runner: UploadRunner; record: UploadRecord; grants: BulkResponse[] }> {
    const { http, grants } = testHttpClient(
      this.server,
      this.origin,
      options.ports?.http ?? nodeUploadPorts().http,
    );
    const runner = new UploadRunner(
      {
        api: { baseUrl: `${this.origin}/api`, headers: this.headers },
        plan: testPlan(files, options.slabbed),
        package:
          'pkg' in target
            ? target.pkg
            : { create: { name: 'Test package', ...period(), ...target.create } },
        ...options.runner,
      },
      { ...nodeUploadPorts(), ...options.ports, http },
    );
    const record = await runner.start();
    if (record.status !== 'COMPLETED') {
      throw new Error(`the upload ended ${record.status}: ${record.error}`);
    }
    return { runner, record, grants };
  }

  async call(method: string, url: string, payload?: unknown) {
    const response = await this.server.app.inject({
      method: method as 'POST',
      url: `/api${url}`,
      headers: this.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  async create(payload: Record<string, unknown>): Promise<SenderPackage> {
    const { status, body } = await this.call('POST', '/packages/create/', payload);
    if (status !== 201) throw new Error(`create failed ${status}: ${JSON.stringify(body)}`);
    return body as unknown as SenderPackage;
  }

  /** Creates a package of `files`, open for two days from now, with the counts they make. */
  async createOf(
    files: TestFile[],
    fields: { contract: string; name: string; recipients: Record<string, unknown>[] },
  ): Promise<SenderPackage> {
    return this.create({
      ...fields,
      ...period(),
      expected_files: files.length,
      expected_size: files.reduce((sum, f) => sum + f.bytes.length, 0),
      intended_files: files.map((f) => ({ filename: f.path, size: f.bytes.length })),
    });
  }

  /**
   * Grants for one batch of `small` files, a PUT grant for each of `objects` (slabs and
   * segments, by name under the prefix) and the grant over the prefix.
   */
  async grants(
    pkg: SenderPackage,
    small: TestFile[],
    largeTotal = 0,
    objects: { name: string; size: number }[] = [],
  ): Promise<BulkResponse> {
    const { status, body } = await this.call('POST', `/packages/${pkg.slug}/bulk/`, {
      batches: [
        {
          batch_name: 'batch-1',
          files: small.map((f) => ({ path: f.path, size: f.bytes.length })),
        },
      ],
      large_file_total_size: largeTotal,
      objects,
    });
    if (status !== 200) throw new Error(`bulk failed ${status}: ${JSON.stringify(body)}`);
    return body as unknown as BulkResponse;
  }

  /** FormPosts `files` as the grants' first batch, by hand; answers storage's response. */
  postForm(grants: BulkResponse, files: TestFile[]): Promise<Response> {
    const batch = grants.bulk_data.file_data[0]!;
    const form = new FormData();
    form.set('redirect', batch.redirect);
    form.set('max_file_size', String(batch.max_file_size));
    form.set('max_file_count', String(batch.max_file_count));
    form.set('expires', String(batch.expires));
    form.set('signature', batch.sig);
    files.forEach((f, i) => {
      const clean = batch.cleaned_files.find((c) => c.path === f.path)!.clean_filename;
      form.append(`file${i}`, new Blob([f.bytes]), clean);
    });
    return fetch(this.atServer(batch.url), { method: 'POST', body: form });
  }

  /** FormPosts one batch by hand; answers the updatefiles entries a report would carry. */
  async formPost(grants: BulkResponse, files: TestFile[]) {
    const batch = grants.bulk_data.file_data[0]!;
    const response = await this.postForm(grants, files);
    if (response.status >= 300) throw new Error(`formpost failed ${response.status}`);
    return files.map((f) => ({
      etag: md5(f.bytes),
      object_path: `${batch.object_prefix}${batch.cleaned_files.find((c) => c.path === f.path)!.clean_filename}`,
      size_bytes: f.bytes.length,
      user_path: f.path,
    }));
  }

  /** One upload call by hand (`updatefiles`, `update`, ...) on the package. */
  upload(pkg: SenderPackage, step: string, payload: unknown) {
    return this.call('POST', `/packages/${pkg.contract.slug}/${pkg.slug}/${step}/`, payload);
  }

  /** The embedded store answers on the listening port; a Swift URL is left as it is. */
  private atServer(url: string): string {
    const u = new URL(url);
    if (u.origin !== new URL(this.server.ctx.config.publicUrl).origin) return url;
    return this.origin + u.pathname + u.search;
  }
}

/** An access period from now to two days on. */
function period() {
  return {
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * 3_600_000).toISOString(),
  };
}
