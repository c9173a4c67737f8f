import { afterEach, describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import { ManualClock } from '../test-support/manual-clock';
import { MemoryResumeStore } from '../test-support/memory-resume-store';
import { Gate, ScriptedHttp } from '../test-support/scripted-http';
import { runJob, type SendContext } from './job-sender';
import { jobsOf, type Job } from './jobs';
import type { UploadLedger } from './ledger';
import { PackageApi } from './package-api';
import { planUpload, type BulkRequestBody, type UploadPlan } from './plan';
import { UploadTracker } from './progress';
import { slabParts } from './slabs';
import { openUpload } from './upload-context';
import {
  ANY_OBJECT,
  API_BASE,
  blobSource,
  bulkAnswer,
  cleanName,
  fakeXxh128,
  OBJECTS,
  pathHasher,
  PKG,
  scriptPackage,
  tinyLimits,
  urls,
} from './test-support/upload-script';

const noJitter = () => 0;
/** The storage policy's delays without jitter: 1 s doubling, five retries. */
const STORAGE_DELAYS = [1000, 2000, 4000, 8000, 16000];

const clients: ScriptedHttp[] = [];
afterEach(() => {
  for (const http of clients.splice(0)) http.verify();
});

const smallFiles = () => [
  blobSource('notes/a.txt', 10),
  blobSource('notes/b.txt', 20),
  blobSource('notes/c.txt', 30),
];
const largeFile = () => blobSource('Shoot/A001.mov', 150);

/**
 * A worker's context over a scripted server and store, built as the runner builds it; every
 * status the abort policy would be told is kept in `observed`.
 */
async function sender(
  sources: ByteSource[],
  options: { slabs?: boolean; latencyMs?: number } = {},
) {
  const plan = planUpload(sources, { limits: tinyLimits, useSlabFiles: options.slabs ?? false });
  const clock = new ManualClock();
  const http = new ScriptedHttp({ clock, latencyMs: options.latencyMs ?? 0 });
  clients.push(http);
  const script = scriptPackage(http);
  const observed: number[] = [];
  const observe = (status: number) => observed.push(status);
  const api = new PackageApi(
    http,
    { baseUrl: API_BASE, headers: { 'x-client-version': 'test' } },
    clock,
    observe,
    noJitter,
  );
  const tracker = new UploadTracker(() => clock.now(), {
    id: PKG.slug,
    name: PKG.name,
    totalFiles: plan.totalFiles,
    totalBytes: plan.totalBytes,
  });
  tracker.move('UPLOADING');
  const resumeStore = new MemoryResumeStore<UploadLedger>();
  const ctx = await openUpload(PKG, plan, {
    ports: { http, joinBlob: (parts) => new Blob(parts), clock, resumeStore, hasher: pathHasher },
    clock,
    random: noJitter,
    api,
    tracker,
    observe,
    storageFull: () => control.abort(new Error('storage is full')),
    workers: 2,
  });
  const control = new AbortController();
  const run = (job: Job) => runJob(ctx, job, control.signal);
  return { plan, clock, http, script, observed, tracker, resumeStore, ctx, control, run };
}

const jobsOfKind = <K extends Job['kind']>(plan: UploadPlan, kind: K) =>
  jobsOf(plan).filter((job): job is Job & { kind: K } => job.kind === kind);

/** The ledger as the resume store holds it once every write is done. */
async function keptLedger(ctx: SendContext, store: MemoryResumeStore<UploadLedger>) {
  await ctx.ledger.idle();
  return (await store.get(PKG.slug))!;
}

describe('a FormPost batch', () => {
  it('is posted with its signed fields before its files, then reported with hashes', async () => {
    const { plan, http, run, tracker, ctx, resumeStore, observed } = await sender(smallFiles());
    const [batch] = jobsOfKind(plan, 'batch');

    expect(await run(batch!)).toBe(true);

    expect(http.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${urls.bulk}`,
      `POST ${OBJECTS}`,
      `POST ${urls.updateFiles}`,
    ]);
    const form = http.requests[1]!.body;
    expect(form.kind === 'form' && form.fields.map(([name]) => name)).toEqual([
      'redirect',
      'max_file_size',
      'max_file_count',
      'expires',
      'signature',
    ]);
    expect(form.kind === 'form' && form.fields[4]).toEqual(['signature', 'sig-1']);
    expect(form.kind === 'form' && form.files.map((f) => [f.field, f.filename, f.size])).toEqual([
      ['file1', cleanName('notes/a.txt'), 10],
      ['file2', cleanName('notes/b.txt'), 20],
    ]);
    // Storage gets no API credentials.
    expect(http.requests[1]!.headers).toEqual({});
    expect(http.requests[2]!.headers['x-client-version']).toBe('test');
    expect(http.requests[2]!.json).toEqual({
      files: ['notes/a.txt', 'notes/b.txt'].map((path, i) => ({
        object_path: `packages/p1/${cleanName(path)}`,
        size_bytes: [10, 20][i],
        user_path: path,
        xxh128: fakeXxh128(path),
      })),
    });
    tracker.flush();
    expect(tracker.current.progress).toMatchObject({ completedFiles: 2, completedBytes: 30 });
    expect(observed).toEqual([200, 201, 200]);
    const ledger = await keptLedger(ctx, resumeStore);
    expect(ledger.batches['batch-1']).toEqual({ objects: {}, reported: true });
    expect(ledger.hashes).toEqual({});
  });

  it('is posted again after a 503 and a dropped connection, after the storage delays', async () => {
    const { plan, http, run, script, clock, tracker, observed } = await sender(smallFiles());
    script.routes.formPost.once({ status: 503 }, { networkError: 'socket hang up' });
    const records: string[][] = [];
    tracker.subscribe((r) => records.push(r.retryingFiles.map((f) => f.path)));

    expect(await run(jobsOfKind(plan, 'batch')[0]!)).toBe(true);

    expect(http.sent('POST', OBJECTS).map((r) => r.outcome)).toEqual([503, 'network-error', 201]);
    expect(clock.slept).toEqual([1000, 2000]);
    // The abort policy hears of every attempt, a dropped connection as 0.
    expect(observed).toEqual([200, 503, 0, 201, 200]);
    expect(records).toContainEqual(['notes/a.txt', 'notes/b.txt']);
    expect(tracker.current.retryingFiles).toEqual([]);
    expect(tracker.current.failedFiles).toEqual([]);
    expect(http.sent('POST', urls.updateFiles)).toHaveLength(1);
  });

  it('fails its files, unreported, once the five retries are spent', async () => {
    const { plan, http, run, script, clock, tracker, ctx, resumeStore } =
      await sender(smallFiles());
    script.routes.formPost.reply({ status: 500 });

    expect(await run(jobsOfKind(plan, 'batch')[0]!)).toBe(false);

    expect(http.sent('POST', OBJECTS)).toHaveLength(6);
    expect(clock.slept).toEqual(STORAGE_DELAYS);
    expect(http.sent('POST', urls.updateFiles)).toEqual([]);
    expect(tracker.current.failedFiles.map((f) => f.path)).toEqual(['notes/a.txt', 'notes/b.txt']);
    expect((await keptLedger(ctx, resumeStore)).batches).toEqual({});
  });

  it('is reported again when the report answers 400, as storage may lag', async () => {
    const { plan, http, run, script, clock, observed } = await sender(smallFiles());
    script.routes.updateFiles.once({ status: 400, json: { detail: 'not in storage yet' } });

    expect(await run(jobsOfKind(plan, 'batch')[0]!)).toBe(true);

    expect(http.sent('POST', OBJECTS)).toHaveLength(1);
    expect(http.sent('POST', urls.updateFiles).map((r) => r.outcome)).toEqual([400, 200]);
    expect(clock.slept).toEqual([500]);
    expect(observed).toEqual([200, 201, 400, 200]);
  });

  it('stored but refused by the report is, on Retry, checked and reported, not posted', async () => {
    const { plan, http, run, script, tracker, ctx, resumeStore } = await sender(smallFiles());
    script.routes.updateFiles.once({ status: 403, json: { detail: 'Not allowed' } });
    const batch = jobsOfKind(plan, 'batch')[0]!;

    expect(await run(batch)).toBe(false);
    // A refusal is not retried.
    expect(http.sent('POST', urls.updateFiles)).toHaveLength(1);
    expect(tracker.current.failedFiles).toHaveLength(2);
    const ledger = await keptLedger(ctx, resumeStore);
    expect(ledger.batches['batch-1']).toEqual({
      objects: { 'notes/a.txt': cleanName('notes/a.txt'), 'notes/b.txt': cleanName('notes/b.txt') },
      reported: false,
    });

    tracker.clearFailed();
    const before = http.requests.length;
    expect(await run(batch)).toBe(true);
    expect(http.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `HEAD /v1/AUTH_fr/files/packages/p1/${cleanName('notes/a.txt')}`,
      `HEAD /v1/AUTH_fr/files/packages/p1/${cleanName('notes/b.txt')}`,
      `POST /api/packages/c1/p1/updatefiles/`,
    ]);
    expect(tracker.current.progress.completedFiles).toBe(2);
  });
});

describe('a slab', () => {
  it('is PUT as one tar and reported with each file’s byte range and hash', async () => {
    const files = smallFiles();
    const { plan, http, run, ctx, resumeStore } = await sender(files, { slabs: true });
    const [job] = jobsOfKind(plan, 'slab');
    const slab = job!.slab;

    expect(await run(job!)).toBe(true);

    const [put] = http.sent('PUT', OBJECTS + slab.name);
    // The slab's own grant, not the one over the prefix.
    expect(put!.query.get('temp_url_sig')).toBe(`sig-1:${slab.name}`);
    expect(put!.query.has('temp_url_prefix')).toBe(false);
    expect(put!.body.kind).toBe('blob');
    const sentBytes = new Uint8Array(await (put!.body as { blob: Blob }).blob.arrayBuffer());
    expect(sentBytes).toEqual(new Uint8Array(await new Blob(slabParts(slab)).arrayBuffer()));
    for (const entry of slab.entries) {
      const original = await entry.source.slice(0, entry.source.size).arrayBuffer();
      expect(sentBytes.slice(entry.start_byte, entry.end_byte)).toEqual(new Uint8Array(original));
    }
    const [report] = http.sent('POST', urls.updateSlabFile);
    expect(report!.json).toEqual({
      object_path: `/files/packages/p1/${slab.name}`,
      size: slab.size,
      files: slab.entries.map((e) => ({
        user_path: e.source.path,
        start_byte: e.start_byte,
        end_byte: e.end_byte,
        xxh128: fakeXxh128(e.source.path),
      })),
    });
    const ledger = await keptLedger(ctx, resumeStore);
    expect(ledger.slabs[slab.name]).toEqual({ etag: 'etag-1', reported: true });
  });

  it('is PUT again after a 429', async () => {
    const { plan, http, run, script, clock } = await sender(smallFiles(), { slabs: true });
    script.routes.put.once({ status: 429 });

    expect(await run(jobsOfKind(plan, 'slab')[0]!)).toBe(true);

    expect(http.sent('PUT', ANY_OBJECT).map((r) => r.outcome)).toEqual([429, 201]);
    expect(clock.slept).toEqual([1000]);
  });

  it('fails without a retry when storage answers no etag (the manifest could not be made)', async () => {
    const { plan, http, run, script, tracker } = await sender(smallFiles(), { slabs: true });
    script.routes.put.once({ status: 201 });

    expect(await run(jobsOfKind(plan, 'slab')[0]!)).toBe(false);

    expect(http.sent('PUT', ANY_OBJECT)).toHaveLength(1);
    expect(http.sent('POST', urls.updateSlabFile)).toEqual([]);
    expect(tracker.current.failedFiles).toHaveLength(3);
  });

  it('stays recorded as stored when its report is refused, so Retry does not PUT it again', async () => {
    const { plan, http, run, script, tracker, ctx, resumeStore } = await sender(smallFiles(), {
      slabs: true,
    });
    script.routes.updateSlabFile.once({ status: 409, json: { detail: 'Package is complete' } });
    const job = jobsOfKind(plan, 'slab')[0]!;

    expect(await run(job)).toBe(false);
    expect(http.sent('POST', urls.updateSlabFile)).toHaveLength(1);
    expect((await keptLedger(ctx, resumeStore)).slabs[job.slab.name]).toEqual({
      etag: 'etag-1',
      reported: false,
    });

    tracker.clearFailed();
    expect(await run(job)).toBe(true);
    expect(http.sent('PUT', ANY_OBJECT)).toHaveLength(1);
    expect(http.sent('HEAD', OBJECTS + job.slab.name)).toHaveLength(1);
    expect(http.sent('POST', urls.updateSlabFile)).toHaveLength(2);
  });
});

describe('the segments of a large file', () => {
  it('are PUT with their bytes; the last stored reports the manifest of every etag', async () => {
    const { plan, http, run, script, ctx, resumeStore, tracker } = await sender([largeFile()]);
    const jobs = jobsOfKind(plan, 'segment');
    const names = jobs.map((job) => job.segment.name);
    // What a crash at the moment of the manifest would leave: every segment's etag.
    let ledgerAtManifest: UploadLedger | undefined;
    script.routes.slo.once(async () => {
      ledgerAtManifest = await resumeStore.get(PKG.slug);
      return { json: { object_path: '/files/packages/p1/x', etag: 'manifest' } };
    });

    expect(await Promise.all(jobs.map(run))).toEqual([true, true, true]);

    const puts = http.sent('PUT', ANY_OBJECT);
    expect(puts.map((r) => [r.path.split('/').pop(), 'size' in r.body && r.body.size])).toEqual([
      ['000000', 64],
      ['000001', 64],
      ['000002', 22],
    ]);
    const bytes = new Uint8Array(await largeFile().slice(64, 128).arrayBuffer());
    const second = puts[1]!.body as { blob: Blob };
    expect(new Uint8Array(await second.blob.arrayBuffer())).toEqual(bytes);
    const slo = http.sent('POST', urls.slo);
    expect(slo).toHaveLength(1);
    expect(http.requests.indexOf(slo[0]!)).toBe(http.requests.length - 1);
    expect(slo[0]!.json).toEqual({
      upload_filename: 'Shoot/A001.mov',
      size: 150,
      session_id: PKG.session_id,
      slo_content: names.map((name, i) => ({
        path: `/files/packages/p1/${name}`,
        etag: `etag-${i + 1}`,
        size_bytes: [64, 64, 22][i],
      })),
      xxh128: fakeXxh128('Shoot/A001.mov'),
    });
    expect(ledgerAtManifest!.largeFiles['Shoot/A001.mov']!.segments).toEqual({
      0: { etag: 'etag-1', size: 64 },
      1: { etag: 'etag-2', size: 64 },
      2: { etag: 'etag-3', size: 22 },
    });
    expect((await keptLedger(ctx, resumeStore)).largeFiles['Shoot/A001.mov']!.reported).toBe(true);
    tracker.flush();
    expect(tracker.current.progress).toMatchObject({ completedFiles: 1, completedBytes: 150 });
  });

  it('report the manifest again when it answers 400, up to the API’s three retries', async () => {
    const { plan, http, run, script, clock, tracker } = await sender([largeFile()]);
    script.routes.slo.reply({ status: 400, json: { detail: 'Segment missing' } });

    const results = await Promise.all(jobsOfKind(plan, 'segment').map(run));

    expect(results.filter((ok) => !ok)).toHaveLength(1);
    expect(http.sent('POST', urls.slo)).toHaveLength(4);
    expect(clock.slept).toEqual([500, 1000, 2000]);
    expect(tracker.current.failedFiles.map((f) => f.path)).toEqual(['Shoot/A001.mov']);
  });

  it('show progress that never goes back when a body is cut off and sent again', async () => {
    const { plan, run, script, tracker } = await sender([largeFile()], { latencyMs: 1000 });
    script.routes.put.once({ networkError: 'connection reset', progress: [16, 40] });
    const shown: number[] = [];
    tracker.subscribe((r) => shown.push(r.progress.completedBytes));

    for (const job of jobsOfKind(plan, 'segment')) expect(await run(job)).toBe(true);

    expect(shown).toContain(40);
    expect(shown.at(-1)).toBe(150);
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeGreaterThanOrEqual(shown[i - 1]!);
  });

  it('stop at once when the signal aborts during a request, sending nothing more', async () => {
    const { plan, http, run, control, tracker, observed } = await sender([largeFile()]);
    const gate = new Gate();
    http.on('PUT', /000000\?/).once(gate);

    const running = run(jobsOfKind(plan, 'segment')[0]!);
    await gate.arrived;
    control.abort(new Error('paused'));

    await expect(running).rejects.toThrow('paused');
    expect(gate.waiting).toBe(0);
    expect(http.requests.map((r) => r.outcome)).toEqual([200, 'aborted']);
    await settle();
    expect(http.requests).toHaveLength(2);
    // A stop is not a failure: the file is neither failed nor retrying, and nothing is observed.
    expect(tracker.current.failedFiles).toEqual([]);
    expect(tracker.current.retryingFiles).toEqual([]);
    expect(observed).toEqual([200]);
  });

  it('stop at once when the signal aborts during a retry delay', async () => {
    const { plan, http, run, script, clock, control } = await sender([largeFile()]);
    script.routes.put.once({ status: 503 });
    clock.holdSleeps();

    const running = run(jobsOfKind(plan, 'segment')[0]!);
    expect(await clock.nextSleep()).toBe(1000);
    control.abort(new Error('cancelled'));

    await expect(running).rejects.toThrow('cancelled');
    clock.release();
    await settle();
    expect(http.sent('PUT', ANY_OBJECT)).toHaveLength(1);
  });

  it('renew the grants after storage refuses one, and the retry carries the new signature', async () => {
    const { plan, http, run, script, observed } = await sender([largeFile()]);
    script.routes.put.once({ status: 401 });
    script.routes.bulk.once(
      (request) => ({ json: bulkAnswer(request.json as BulkRequestBody, 'sig-1') }),
      (request) => ({ json: bulkAnswer(request.json as BulkRequestBody, 'sig-2') }),
    );

    expect(await run(jobsOfKind(plan, 'segment')[0]!)).toBe(true);

    const segment = plan.largeFiles[0]!.segments[0]!.name;
    expect(http.requests.map((r) => [r.method, r.query.get('temp_url_sig')])).toEqual([
      ['POST', null],
      ['PUT', `sig-1:${segment}`],
      ['POST', null],
      ['PUT', `sig-2:${segment}`],
    ]);
    expect(observed).toEqual([200, 401, 200, 201]);
  });
});

/** Lets every pending promise and timer of the engine run. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
