import type {
  ByteSource,
  Clock,
  HttpClient,
  HttpRequest,
  HttpResponse,
  SlabPacker,
} from '../ports';
import { API_BACKOFF_BASE_MS, ApiError, limits } from '@filerunner/protocol';
import { backoffDelays, requestWithRetries, storageRetryPolicy, type RetryPolicy } from '../retry';
import type { FileReports } from './file-reports';
import type { GrantKeeper } from './grant-keeper';
import { formPostObjects, formPostUrl, grantForBatch, headUrl, storedObjectPath } from './grants';
import type { HashBook } from './hash-book';
import type { Job } from './jobs';
import { forgetReported, type LedgerWriter } from './ledger';
import type { PackageApi, PackageRef } from './package-api';
import type { LargeFile, SlabPart } from './plan';
import { slabParts, slabPartsByEntry } from './slabs';
import type { Slots } from './slots';
import type { UploadTracker } from './progress';

/** What a worker needs to send jobs: the ports, the package, and the upload's shared state. */
export interface SendContext {
  /** For the API's calls and storage requests. */
  http: HttpClient;
  /**
   * The upload's workers: storage requests on their way at once. Each attempt takes one before
   * it is built (see `requestWithRetries`' turn), so it leaves signed with the current grants.
   */
  workers: Slots;
  clock: Clock;
  api: PackageApi;
  pkg: PackageRef & { session_id?: string };
  grants: GrantKeeper;
  ledger: LedgerWriter;
  tracker: UploadTracker;
  hashes: HashBook;
  /** Where FormPost batches are reported, several in one call. */
  fileReports: FileReports;
  /** The platform's `new Blob(parts)`, for slab objects. */
  joinBlob: (parts: SlabPart[]) => Blob;
  /** Reads small slabs into memory with their files' hashes, when the platform has one. */
  slabPacker?: SlabPacker;
  /** Bytes of packed slabs held at once, from their packing to the end of their PUT. */
  packedBytes: Slots;
  /** Slabs being packed at once: a few, so the first are sent while the next are read. */
  packing: Slots;
  /** Every answer's status (0 for none), for the abort policy. */
  observe: (status: number) => void;
  /**
   * Storage (or the API, writing a manifest) answered 507 Insufficient Storage: the upload
   * pauses (the signal aborts) rather than failing files that will go once space returns.
   */
  storageFull: () => void;
  random: () => number;
  /** Object names known to be stored, written or confirmed by this run. */
  confirmed: Set<string>;
  /** Large files whose manifest is being made, so two workers never make it twice. */
  reporting: Map<string, Promise<void>>;
  /** A counter that spreads requests over the storage hosts. */
  nextTurn(): number;
}

/** A job that failed for good: its retries are spent, or a report was refused. */
class JobFailed extends Error {}

/** Storage's (and Swift's) answer for a full volume: a reason to wait, never to send again now. */
const INSUFFICIENT_STORAGE = 507;

/**
 * Why a send stops when the session ends: its storage requests under way still land (see
 * `landingSignal`), everything else stops.
 */
export class SessionEnded extends Error {
  constructor() {
    super('the session ended');
  }
}

const landings = new WeakMap<AbortSignal, AbortController>();

/**
 * What a storage request under way answers to: the send's own signal, except when the send
 * stops because the session ended. Storage takes signed grants, not the session, so the
 * request can finish, and what it stored is recorded; cut off, it would be sent again. One per
 * send, so its signal gets one listener however many requests there are.
 */
function landingSignal(signal: AbortSignal): AbortSignal {
  let landing = landings.get(signal);
  if (!landing) {
    const controller = new AbortController();
    const cut = () => {
      if (!(signal.reason instanceof SessionEnded)) controller.abort(signal.reason);
    };
    if (signal.aborted) cut();
    else signal.addEventListener('abort', cut, { once: true });
    landings.set(signal, (landing = controller));
  }
  return landing.signal;
}

/**
 * Cuts the storage requests of a send that the session's end left to land: the upload is
 * resumed, cancelled or killed before they did (a request that never answers must not hold
 * it up).
 */
export function cutLandingRequests(signal: AbortSignal, reason: unknown): void {
  landings.get(signal)?.abort(reason);
}

/**
 * Sends a job and reports it. Resolves true when its files are stored and recorded, false
 * when they failed (marked so in the tracker); rejects only when `signal` aborts (pause,
 * cancel, the abort policy), leaving the job to be taken again.
 */
export async function runJob(ctx: SendContext, job: Job, signal: AbortSignal): Promise<boolean> {
  if (job.files.some((file) => ctx.tracker.hasFailed(file.path))) return false;
  try {
    if (job.kind === 'batch') await runBatch(ctx, job, signal);
    else if (job.kind === 'slab') await runSlab(ctx, job, signal);
    else await runSegment(ctx, job, signal);
    for (const file of job.files) ctx.tracker.fileRecovered(file);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === INSUFFICIENT_STORAGE) ctx.storageFull();
    // Retries spent, a report refused, a file that cannot be read: the job's files failed and
    // the upload goes on with the others. Only a stop (pause, cancel, abort) ends it here.
    signal.throwIfAborted();
    ctx.tracker.sent(job, 0, false);
    for (const file of job.files) ctx.tracker.fileFailed(file);
    return false;
  }
}

async function runBatch(ctx: SendContext, job: Job & { kind: 'batch' }, signal: AbortSignal) {
  const name = job.batch.batch_name;
  const known = ctx.ledger.ledger.batches[name];
  if (known?.reported) return finishResumed(ctx, job);
  const hashing = hashesOf(ctx, job.files, signal);
  let objects = known?.objects;
  let recorded = Promise.resolve();
  if (objects && (await allStored(ctx, job.files, objects, signal))) {
    ctx.tracker.resumed(job, job.bytes);
  } else {
    objects = await formPost(ctx, job, signal);
    const stored = objects;
    // Written while the batch is reported rather than before it: each waits its turn, and one
    // after the other would keep the job (and the next batch) waiting twice as long.
    recorded = ctx.ledger.change((l) => {
      l.batches[name] = { objects: stored, reported: false };
    });
    recorded.catch(() => undefined);
  }
  const hashes = await hashing;
  const prefix = (await ctx.grants.current(signal)).tempurl_data.object_prefix;
  await ctx.fileReports.report(
    job.files.map((file, i) => ({
      object_path: `${prefix}${objects[file.path]}`,
      size_bytes: file.size,
      user_path: file.path,
      ...(hashes[i] ? { xxh128: hashes[i] } : {}),
    })),
    signal,
  );
  await recorded;
  ctx.ledger.note((l) => {
    l.batches[name] = { objects: {}, reported: true };
    forgetReported(l, job.files);
  });
  for (const file of job.files) ctx.tracker.fileDone(file);
}

/** FormPosts a batch; answers each file's object name (under the prefix) as stored. */
async function formPost(ctx: SendContext, job: Job & { kind: 'batch' }, signal: AbortSignal) {
  let names: Record<string, string> = {};
  await storageRequest(ctx, job, signal, async () => {
    const grant = grantForBatch(await ctx.grants.current(signal), job.batch);
    const objects = formPostObjects(job.batch, grant);
    names = Object.fromEntries(objects.map((o) => [o.source.path, o.clean_filename]));
    return {
      method: 'POST',
      url: formPostUrl(grant, ctx.nextTurn()),
      body: {
        // Swift's FormPost reads the signed fields before the first file.
        fields: [
          ['redirect', grant.redirect],
          ['max_file_size', String(grant.max_file_size)],
          ['max_file_count', String(grant.max_file_count)],
          ['expires', String(grant.expires)],
          ['signature', grant.sig],
        ],
        files: objects.map((o, i) => ({
          field: `file${i + 1}`,
          filename: o.clean_filename,
          content: o.source.slice(0, o.source.size),
        })),
      },
      onUploadProgress: (sent) => ctx.tracker.sending(job, Math.min(sent, job.bytes)),
    };
  });
  ctx.tracker.sent(job, job.bytes, true);
  return names;
}

/** Slabs up to this size are packed in memory (with a `SlabPacker`) rather than joined. */
const PACKED_SLAB_MAX_BYTES = 32 * 1024 * 1024;

async function runSlab(ctx: SendContext, job: Job & { kind: 'slab' }, signal: AbortSignal) {
  const { slab } = job;
  const known = ctx.ledger.ledger.slabs[slab.name];
  if (known?.reported) return finishResumed(ctx, job);
  let hashing: Promise<(string | undefined)[]>;
  let recorded = Promise.resolve();
  if (known && (await isStored(ctx, slab.name, slab.size, known.etag, signal))) {
    hashing = hashesOf(ctx, job.files, signal);
    ctx.tracker.resumed(job, job.bytes);
  } else {
    let etag: string;
    if (ctx.slabPacker && slab.size <= PACKED_SLAB_MAX_BYTES) {
      const release = await ctx.packedBytes.take(signal, slab.size);
      try {
        const packing = await ctx.packing.take(signal);
        const packed = await packSlab(ctx, ctx.slabPacker, job, signal).finally(packing);
        hashing = packed.hashing;
        etag = await put(ctx, job, slab.name, packed.body, signal);
      } finally {
        release();
      }
    } else {
      hashing = hashesOf(ctx, job.files, signal);
      etag = await put(ctx, job, slab.name, ctx.joinBlob(slabParts(slab)), signal);
    }
    // Written while the slab is reported, as a batch is.
    recorded = ctx.ledger.change((l) => {
      l.slabs[slab.name] = { etag, reported: false };
    });
    recorded.catch(() => undefined);
  }
  const hashes = await hashing;
  const grant = (await ctx.grants.current(signal)).tempurl_data;
  await ctx.api.updateSlabFile(
    ctx.pkg,
    {
      object_path: storedObjectPath(grant, slab.name),
      size: slab.size,
      files: slab.entries.map((entry, i) => ({
        user_path: entry.source.path,
        start_byte: entry.start_byte,
        end_byte: entry.end_byte,
        ...(hashes[i] ? { xxh128: hashes[i] } : {}),
      })),
    },
    signal,
  );
  await recorded;
  ctx.ledger.note((l) => {
    l.slabs[slab.name]!.reported = true;
    forgetReported(l, job.files);
  });
  for (const file of job.files) ctx.tracker.fileDone(file);
}

/**
 * The slab's body read into memory by the packer, which hashes its files on the way (those not
 * hashed yet); an empty file, having no part to read, is hashed apart.
 */
async function packSlab(
  ctx: SendContext,
  packer: SlabPacker,
  job: Job & { kind: 'slab' },
  signal: AbortSignal,
) {
  const { parts, entryParts } = slabPartsByEntry(job.slab);
  const known = ctx.ledger.ledger.hashes;
  const toHash = job.files.flatMap((file, i) =>
    entryParts[i] !== null && !known[file.path] ? [i] : [],
  );
  const { body, hashes } = await packer.pack(
    parts,
    toHash.map((i) => entryParts[i]!),
    signal,
  );
  toHash.forEach((entry, i) => ctx.hashes.record(job.files[entry]!, hashes[i]!));
  return { body, hashing: hashesOf(ctx, job.files, signal) };
}

async function runSegment(ctx: SendContext, job: Job & { kind: 'segment' }, signal: AbortSignal) {
  const { large, segment } = job;
  const path = large.source.path;
  const known = ctx.ledger.ledger.largeFiles[path];
  if (known?.reported) return finishResumed(ctx, job);
  // Hashing starts with the first segment and runs beside the upload.
  void ctx.hashes.of(large.source, signal).catch(() => undefined);
  const stored = known?.segments[segment.index];
  const size = segment.end - segment.start;
  if (
    stored &&
    (ctx.confirmed.has(segment.name) ||
      (await isStored(ctx, segment.name, size, stored.etag, signal)))
  ) {
    ctx.confirmed.add(segment.name);
    ctx.tracker.resumed(job, job.bytes);
  } else {
    const bytes = large.source.slice(segment.start, segment.end);
    const etag = await put(ctx, job, segment.name, bytes, signal);
    await ctx.ledger.change((l) => {
      const file = (l.largeFiles[path] ??= { segments: {}, reported: false });
      file.segments[segment.index] = { etag, size };
    });
    ctx.confirmed.add(segment.name);
  }
  if (large.segments.every((s) => ctx.confirmed.has(s.name))) {
    let making = ctx.reporting.get(path);
    if (!making) {
      making = reportLargeFile(ctx, large, signal).finally(() => ctx.reporting.delete(path));
      ctx.reporting.set(path, making);
    }
    await making;
  }
}

/** Joins a large file's stored segments into its manifest (`slo`), with the file's hash. */
async function reportLargeFile(ctx: SendContext, large: LargeFile, signal: AbortSignal) {
  const path = large.source.path;
  if (ctx.ledger.ledger.largeFiles[path]?.reported) return;
  const hash = await ctx.hashes.of(large.source, signal);
  const grant = (await ctx.grants.current(signal)).tempurl_data;
  const stored = ctx.ledger.ledger.largeFiles[path]!.segments;
  await ctx.api.slo(
    ctx.pkg,
    {
      upload_filename: path,
      size: large.source.size,
      ...(ctx.pkg.session_id ? { session_id: ctx.pkg.session_id } : {}),
      slo_content: large.segments.map((s) => ({
        path: storedObjectPath(grant, s.name),
        etag: stored[s.index]!.etag,
        size_bytes: stored[s.index]!.size,
      })),
      ...(hash ? { xxh128: hash } : {}),
    },
    signal,
  );
  ctx.ledger.note((l) => {
    l.largeFiles[path]!.reported = true;
    forgetReported(l, [large.source]);
  });
  ctx.tracker.fileDone(large.source);
}

/** A job an earlier run finished: its bytes and files count as done without a request. */
function finishResumed(ctx: SendContext, job: Job) {
  ctx.tracker.resumed(job, job.bytes);
  for (const file of job.files) if (!ctx.tracker.isDone(file.path)) ctx.tracker.fileDone(file);
}

function hashesOf(ctx: SendContext, files: readonly ByteSource[], signal: AbortSignal) {
  const hashing = Promise.all(files.map((file) => ctx.hashes.of(file, signal)));
  // Awaited after the upload; until then a failure must not count as unhandled.
  hashing.catch(() => undefined);
  return hashing;
}

/** PUTs an object under the package prefix with its own signed URL; answers its etag. */
async function put(ctx: SendContext, job: Job, name: string, body: Blob, signal: AbortSignal) {
  const share = job.bytes / Math.max(1, body.size);
  const response = await storageRequest(ctx, job, signal, async () => ({
    method: 'PUT',
    url: await ctx.grants.putUrlOf(name, ctx.nextTurn, signal),
    body,
    onUploadProgress: (sent) => ctx.tracker.sending(job, Math.floor(sent * share)),
  }));
  const etag = unquoted(response.header('etag'));
  // Without the etag the manifest cannot be made (a CORS setup that hides it, a broken proxy).
  if (!etag) throw new JobFailed(`storage answered no etag for ${name}`);
  ctx.tracker.sent(job, job.bytes, true);
  return etag;
}

/**
 * One storage request under the per-file retry policy: every failed attempt is shown to the
 * abort policy, marks the job's files as retrying, and after a refusal (401, 403) renews the
 * grants before the next attempt.
 */
async function storageRequest(
  ctx: SendContext,
  job: Job,
  signal: AbortSignal,
  build: () => Promise<HttpRequest>,
): Promise<HttpResponse> {
  const policy = storageRetryPolicy(ctx.random);
  const response = await requestWithRetries(
    ctx.http,
    build,
    // Sending the body again at once would only be refused again: the upload pauses instead.
    { ...policy, retryStatus: (s) => s !== INSUFFICIENT_STORAGE && policy.retryStatus(s) },
    {
      clock: ctx.clock,
      signal: landingSignal(signal),
      // A request not yet started waits for its worker under the send's signal: it stops with it.
      turn: () => ctx.workers.take(signal),
      onFailedAttempt: (outcome) => {
        const status = 'response' in outcome ? outcome.response.status : 0;
        // Not a failed attempt of this file: the upload pauses, and nothing is retried.
        if (status === INSUFFICIENT_STORAGE) return;
        ctx.observe(status);
        if (status === 401 || status === 403) ctx.grants.markStale();
        ctx.tracker.sent(job, 0, false);
        for (const file of job.files) ctx.tracker.fileRetrying(file);
      },
    },
  ).catch((error: unknown) => {
    signal.throwIfAborted();
    throw new JobFailed(`no answer from storage: ${String(error)}`);
  });
  if (response.status === INSUFFICIENT_STORAGE) {
    ctx.tracker.sent(job, 0, false);
    ctx.storageFull();
    signal.throwIfAborted();
  }
  if (response.status >= 300) throw new JobFailed(`storage answered ${response.status}`);
  ctx.observe(response.status);
  return response;
}

/** Checking what an earlier run stored: a few retries, and a 404 is an answer, not a failure. */
const checkPolicy = (random: () => number): RetryPolicy => ({
  delays: backoffDelays(limits.apiRetries, API_BACKOFF_BASE_MS, random),
  retryStatus: (status) => status >= 500 || status === 429 || status === 401 || status === 403,
  retryNoAnswer: true,
  timeoutMs: limits.apiTimeoutMs,
});

/** Whether storage holds `name` with this size (and etag), by HEAD with the prefix grant. */
async function isStored(
  ctx: SendContext,
  name: string,
  size: number,
  etag: string | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const response = await requestWithRetries(
    ctx.http,
    async () => ({
      method: 'HEAD',
      url: headUrl((await ctx.grants.current(signal)).tempurl_data, name, ctx.nextTurn()),
    }),
    checkPolicy(ctx.random),
    {
      clock: ctx.clock,
      signal,
      turn: (s) => ctx.workers.take(s),
      onFailedAttempt: (outcome) => {
        const status = 'response' in outcome ? outcome.response.status : 0;
        if (status === 401 || status === 403) ctx.grants.markStale();
      },
    },
  ).catch(() => {
    signal.throwIfAborted();
    return null;
  });
  if (response?.status !== 200) return false;
  if (Number(response.header('content-length')) !== size) return false;
  return etag === undefined || unquoted(response.header('etag')) === etag;
}

async function allStored(
  ctx: SendContext,
  files: readonly ByteSource[],
  objects: Record<string, string>,
  signal: AbortSignal,
): Promise<boolean> {
  for (const file of files) {
    const name = objects[file.path];
    if (!name || !(await isStored(ctx, name, file.size, undefined, signal))) return false;
  }
  return true;
}

function unquoted(etag: string | null): string {
  return (etag ?? '').replace(/"/g, '');
}
