import { createHash } from 'node:crypto';
import type { BulkResponse, SenderPackage } from '@filerunner/protocol';
import type { TestServer } from './harness';

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
  const segments = [fileBytes(64 * 1024, 6), fileBytes(64 * 1024, 7), fileBytes(999, 8)];
  const large: TestFile = { path: 'video/cut.mov', bytes: Buffer.concat(segments) };
  return { small, slabbed, segments, large, all: [...small, ...slabbed, large] };
}

/**
 * Sends a package the way the browser engine does, over real HTTP against a listening test
 * server: create, sign grants, FormPost small files, PUT a slab and segments, report each, and
 * finalise. Embedded-store URLs name the configured PUBLIC_URL; they are pointed at the listening
 * port (the signatures cover only the path, as in Swift).
 */
export class TestUploader {
  constructor(
    private readonly server: TestServer,
    private readonly origin: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** The embedded store answers on the listening port; a Swift URL is left as it is. */
  private atServer(url: string): string {
    const u = new URL(url);
    if (u.origin !== new URL(this.server.ctx.config.publicUrl).origin) return url;
    return this.origin + u.pathname + u.search;
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
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * 3_600_000).toISOString(),
      expected_files: files.length,
      expected_size: files.reduce((sum, f) => sum + f.bytes.length, 0),
      intended_files: files.map((f) => ({ filename: f.path, size: f.bytes.length })),
    });
  }

  async grants(pkg: SenderPackage, small: TestFile[], largeTotal = 0): Promise<BulkResponse> {
    const { status, body } = await this.call('POST', `/packages/${pkg.slug}/bulk/`, {
      batches: [
        {
          batch_name: 'batch-1',
          files: small.map((f) => ({ path: f.path, size: f.bytes.length })),
        },
      ],
      large_file_total_size: largeTotal,
    });
    if (status !== 200) throw new Error(`bulk failed ${status}: ${JSON.stringify(body)}`);
    return body as unknown as BulkResponse;
  }

  /** FormPosts one batch; answers the updatefiles entries the engine would report. */
  async formPost(grants: BulkResponse, files: TestFile[]) {
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
    const response = await fetch(this.atServer(batch.url), { method: 'POST', body: form });
    if (response.status >= 300) throw new Error(`formpost failed ${response.status}`);
    return files.map((f) => ({
      etag: md5(f.bytes),
      object_path: `${batch.object_prefix}${batch.cleaned_files.find((c) => c.path === f.path)!.clean_filename}`,
      size_bytes: f.bytes.length,
      user_path: f.path,
    }));
  }

  /** PUTs an object under the package prefix with the prefix grant; answers `/container/key`. */
  async put(grants: BulkResponse, name: string, bytes: Buffer): Promise<string> {
    const t = grants.tempurl_data;
    const query = new URL(t.temp_url).search;
    const url = `${t.swift_endpoint}${t.swift_path}${name}${query}`;
    const response = await fetch(this.atServer(url), { method: 'PUT', body: bytes });
    if (response.status !== 201) throw new Error(`put failed ${response.status}`);
    return `/${t.container}/${t.object_prefix}${name}`;
  }

  /** PUTs `files` as one slab object and reports where each lies in it (`updateslabfile`). */
  async slab(pkg: SenderPackage, grants: BulkResponse, name: string, files: TestFile[]) {
    const objectPath = await this.put(grants, name, Buffer.concat(files.map((f) => f.bytes)));
    let offset = 0;
    const entries = files.map((f) => {
      const entry = { user_path: f.path, start_byte: offset, end_byte: offset + f.bytes.length };
      offset += f.bytes.length;
      return entry;
    });
    return this.upload(pkg, 'updateslabfile', {
      object_path: objectPath,
      size: offset,
      files: entries,
    });
  }

  /** PUTs a large file's segments and reports the manifest that joins them (`slo`). */
  async segmented(pkg: SenderPackage, grants: BulkResponse, path: string, segments: Buffer[]) {
    const content = [];
    for (const [i, bytes] of segments.entries()) {
      const objectPath = await this.put(grants, `segments/${path}/${i}`, bytes);
      content.push({ path: objectPath, etag: md5(bytes), size_bytes: bytes.length });
    }
    return this.upload(pkg, 'slo', {
      upload_filename: path,
      size: segments.reduce((sum, b) => sum + b.length, 0),
      slo_content: content,
    });
  }

  upload(pkg: SenderPackage, step: string, payload: unknown) {
    return this.call('POST', `/packages/${pkg.contract.slug}/${pkg.slug}/${step}/`, payload);
  }
}
