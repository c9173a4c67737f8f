import { api, bulkResponse, pathOf, type ApiRoute, type BulkResponse } from '@filerunner/protocol';
import type { ByteSource, FileHasher } from '../../ports';
import type { RecordedRequest, Route, ScriptedHttp } from '../../test-support/scripted-http';
import { defaultUploadLimits, type UploadLimits } from '../../upload-limits';
import type { BulkRequestBody, UploadPlan } from '../plan';

/** Where the scripted API lives, and the package every script fills. */
export const API_BASE = 'https://filerunner.test/api';
export const STORE = 'https://store.test/v1/AUTH_fr';
export const PKG = {
  slug: 'p1',
  name: 'Dailies',
  contract: { slug: 'c1' },
  session_id: 'sess-1',
} as const;
const PREFIX = `packages/${PKG.slug}/`;
/** Where the package's objects are PUT and FormPosted: `${STORE}/files/packages/p1/<name>`. */
export const OBJECTS = `${STORE}/files/${PREFIX}`;
/** Any URL of an object of the package (with or without a query). */
export const ANY_OBJECT = new RegExp(`^${escape(OBJECTS)}`);

/**
 * Limits small enough for files of a few hundred bytes: a file over 100 bytes goes as segments
 * of 64 bytes, a FormPost batch holds 2 files, a slab 3.
 */
export const tinyLimits: UploadLimits = {
  ...defaultUploadLimits,
  largeFileThreshold: 100,
  baseChunkSize: 64,
  maxChunkSize: 64,
  maxBatchItems: 2,
  maxBatchBytes: 1000,
  maxSlabFiles: 3,
};

/** A picked file of `size` bytes of a pattern its `seed` sets, backed by a Blob. */
export function blobSource(path: string, size: number, seed = path.length): ByteSource {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (seed * 31 + i * 7) & 0xff;
  const blob = new Blob([bytes]);
  return { path, size, lastModified: 1_700_000_000_000, slice: (s, e) => blob.slice(s, e) };
}

/** A hasher that answers a made-up xxh128 per path (32 hex digits) without reading a byte. */
export const pathHasher: FileHasher = {
  xxh128: async (source) => fakeXxh128(source.path),
};

export function fakeXxh128(path: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(4);
}

/** The URL of a call of the route table, as the engine must build it. */
export function apiUrl(route: ApiRoute, params: Record<string, string> = {}): string {
  return `${API_BASE}${pathOf(route, params)}`;
}

const pkgParams = { contract: PKG.contract.slug, package: PKG.slug };

/** The URLs of the package's calls. */
export const urls = {
  create: apiUrl(api.packages.create),
  bulk: apiUrl(api.packages.bulk, { slug: PKG.slug }),
  updateFiles: apiUrl(api.packages.updateFiles, pkgParams),
  updateSlabFile: apiUrl(api.packages.updateSlabFile, pkgParams),
  slo: apiUrl(api.packages.slo, pkgParams),
  finalise: apiUrl(api.packages.finalise, pkgParams),
};

/** The object name FormPost stores a batch file under (the server's cleaned name). */
export const cleanName = (path: string) => `${path.replace(/[^A-Za-z0-9._-]/g, '_')}-c1ea`;

/**
 * The bulk answer for `body`, as the server gives it (checked by the protocol's schema): one
 * FormPost grant per batch, a PUT grant for each listed object and the HEAD grant over the
 * prefix, signed with `sig`.
 */
export function bulkAnswer(body: BulkRequestBody, sig = 'sig-1'): BulkResponse {
  const expires = 1_900_000_000;
  return bulkResponse.parse({
    bulk_data: {
      file_data: body.batches.map((batch) => ({
        batch_name: batch.batch_name,
        url: OBJECTS,
        path: `/v1/AUTH_fr/files/${PREFIX}`,
        alternative_urls: [],
        redirect: '',
        max_file_size: 1000,
        max_file_count: 10,
        expires,
        sig,
        object_prefix: PREFIX,
        cleaned_files: batch.files.map((f) => ({
          path: f.path,
          clean_filename: cleanName(f.path),
        })),
      })),
    },
    tempurl_data: {
      path: `/v1/AUTH_fr/files/${PREFIX}`,
      container: 'files',
      temp_url: `${OBJECTS}?temp_url_sig=${sig}&temp_url_expires=${expires}&temp_url_prefix=${PREFIX}`,
      signature: sig,
      expires,
      swift_endpoint: STORE,
      swift_path: `/files/${PREFIX}`,
      object_prefix: PREFIX,
      alternative_urls: [],
      objects: body.objects.map((object) => ({
        name: object.name,
        temp_url: `${OBJECTS}${object.name}?${new URLSearchParams({
          temp_url_sig: objectSignature(sig, object.name),
          temp_url_expires: String(expires),
        })}`,
      })),
    },
  });
}

/** The made-up signature of one object's PUT: the grant's `sig`, then the object's name. */
const objectSignature = (sig: string, name: string) => `${sig}:${name}`;

/**
 * Whether a PUT carries a grant for its own object, as Swift checks it: a PUT with the prefix
 * grant (HEAD only) or another object's signature is refused.
 */
function signedForObject(request: RecordedRequest, name: string): boolean {
  const sig = request.query.get('temp_url_sig') ?? '';
  return !request.query.has('temp_url_prefix') && sig.endsWith(objectSignature('', name));
}

/** The package as `create` and `finalise` answer it (the fields the engine reads, and more). */
export function packageAnswer(status = 'uploading', extra: Record<string, unknown> = {}) {
  return {
    id: 1,
    slug: PKG.slug,
    name: PKG.name,
    message: '',
    status,
    contract: { id: 1, slug: PKG.contract.slug, name: 'Studio' },
    sender: { name: 'Ann' },
    date_sent: null,
    valid_date: '2024-01-01',
    expires_date: '2024-02-01',
    bytes: 0,
    num_files: 0,
    pin_verified: false,
    invalid_filenames: false,
    recipients: [],
    storage_urls: [STORE],
    session_id: PKG.session_id,
    ...extra,
  };
}

/** An object in the scripted store. */
export interface StoredObject {
  size: number;
  etag: string;
}

/** The scripted server: its routes (to add exceptions to) and what its store holds. */
export interface PackageScript {
  /** Objects stored, by name under the package prefix (`slabs/…`, `segments/…`, batch names). */
  store: Map<string, StoredObject>;
  routes: {
    create: Route;
    bulk: Route;
    put: Route;
    head: Route;
    formPost: Route;
    updateFiles: Route;
    updateSlabFile: Route;
    slo: Route;
    finalise: Route;
  };
}

/**
 * Scripts a server and store that take the whole upload of one package: create, bulk grants,
 * PUTs and FormPosts kept in `store` (with an etag each), HEAD answered from it, every report
 * and the finalise accepted. Tests add the exceptions they are about with `http.on` or
 * `route.once`.
 */
export function scriptPackage(http: ScriptedHttp): PackageScript {
  const store = new Map<string, StoredObject>();
  const objectName = (request: RecordedRequest) =>
    decodeURIComponent(request.path.slice(new URL(OBJECTS).pathname.length));
  let etags = 0;
  const routes = {
    create: http.on('POST', urls.create).reply({ status: 201, json: packageAnswer() }),
    bulk: http
      .on('POST', urls.bulk)
      .reply((request) => ({ json: bulkAnswer(request.json as BulkRequestBody) })),
    put: http.on('PUT', ANY_OBJECT).reply((request) => {
      const name = objectName(request);
      if (!signedForObject(request, name)) return { status: 401 };
      const etag = `etag-${++etags}`;
      store.set(name, { size: sizeOf(request), etag });
      return { status: 201, headers: { etag: `"${etag}"` } };
    }),
    head: http.on('HEAD', ANY_OBJECT).reply((request) => {
      const object = store.get(objectName(request));
      if (!object) return { status: 404 };
      return { headers: { 'content-length': String(object.size), etag: `"${object.etag}"` } };
    }),
    formPost: http.on('POST', OBJECTS).reply((request) => {
      if (request.body.kind !== 'form') return { status: 400 };
      for (const file of request.body.files) {
        store.set(file.filename, { size: file.size, etag: `etag-${++etags}` });
      }
      return { status: 201 };
    }),
    updateFiles: http.on('POST', urls.updateFiles).reply((request) => ({
      json: { updated: (request.json as { files: unknown[] }).files.length },
    })),
    updateSlabFile: http.on('POST', urls.updateSlabFile).reply((request) => ({
      json: { updated: (request.json as { files: unknown[] }).files.length },
    })),
    slo: http
      .on('POST', urls.slo)
      .reply({ json: { object_path: `/files/${PREFIX}large`, etag: 'manifest' } }),
    finalise: http.on('POST', urls.finalise).reply((request) => {
      const force = (request.json as { force: boolean }).force;
      return { json: packageAnswer(force ? 'force_completed' : 'complete', { failed_files: [] }) };
    }),
  };
  return { store, routes };
}

/** `planUpload` and `UploadPlan` fields the tests name often. */
export const segmentNames = (plan: UploadPlan) =>
  plan.largeFiles.flatMap((large) => large.segments.map((s) => s.name));

function sizeOf(request: RecordedRequest): number {
  return 'size' in request.body ? request.body.size : 0;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
