import { afterEach, describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import { ManualClock } from '../test-support/manual-clock';
import { MemoryResumeStore } from '../test-support/memory-resume-store';
import { Gate, ScriptedHttp, type RecordedRequest } from '../test-support/scripted-http';
import { pauseMessages, type UploadRecord, type UploadStatus } from './events';
import type { UploadLedger } from './ledger';
import { planUpload } from './plan';
import { STORAGE_FULL_PROBE_DELAYS_MS, UploadRunner, type UploadOptions } from './runner';
import {
  ANY_OBJECT,
  API_BASE,
  blobSource,
  bulkAnswer,
  OBJECTS,
  pathHasher,
  PKG,
  scriptPackage,
  tinyLimits,
  urls,
} from './test-support/upload-script';

const clients: ScriptedHttp[] = [];
afterEach(() => {
  for (const http of clients.splice(0)) http.verify();
});

/** A 150-byte file (three segments of 64, 64 and 22 bytes) and three small files. */
const pickedFiles = (): ByteSource[] => [
  blobSource('Shoot/A001.mov', 150),
  blobSource('notes/a.txt', 10),
  blobSource('notes/b.txt', 20),
  blobSource('notes/c.txt', 30),
];
const LARGE = 'Shoot/A001.mov';
/** The path of the package's objects, which an object's own signature follows. */
const OBJECTS_PATH = new URL(OBJECTS).pathname;

/** A runner over a scripted server and store, with the Share screen's fields to create from. */
function upload(
  options: Partial<UploadOptions> & { slabs?: boolean; http?: ScriptedHttp; clock?: ManualClock },
  store = new MemoryResumeStore<UploadLedger>(),
) {
  const plan = planUpload(pickedFiles(), { limits: tinyLimits, useSlabFiles: options.slabs });
  const clock = options.clock ?? new ManualClock();
  const http = options.http ?? new ScriptedHttp({ clock });
  clients.push(http);
  const script = options.http ? null : scriptPackage(http);
  const runner = new UploadRunner(
    {
      api: { baseUrl: API_BASE, headers: { 'x-client-version': 'test' } },
      plan,
      package: {
        create: {
          contract: PKG.contract.slug,
          name: PKG.name,
          message: 'Day 1',
          valid_from: '2026-01-05T09:00:00Z',
          valid_to: '2026-01-12T09:00:00Z',
        },
      },
      workers: 1,
      ...options,
    },
    {
      http,
      joinBlob: (parts) => new Blob(parts),
      clock,
      resumeStore: store,
      hasher: pathHasher,
      random: () => 0,
    },
  );
  const records: UploadRecord[] = [];
  runner.subscribe((record) => records.push(record));
  return { plan, clock, http, script: script!, runner, records, store };
}

/** Each request named by what it is: the API call, or the storage request and its object. */
function named(request: RecordedRequest): string {
  const call = Object.entries(urls).find(([, url]) => url === request.url)?.[0];
  if (call) return call;
  const object = request.url.startsWith(OBJECTS)
    ? request.url.slice(OBJECTS.length).split('?')[0]!
    : request.url;
  const last = object.split('/').pop() || 'formpost';
  return `${request.method} ${last.startsWith('batch') || object === '' ? 'formpost' : last}`;
}

/** The statuses the upload went through, each once. */
const statuses = (records: UploadRecord[]): UploadStatus[] =>
  records.map((r) => r.status).filter((status, i, all) => status !== all[i - 1]);

const neverBackward = (records: UploadRecord[]) => {
  const bytes = records.map((r) => r.progress.completedBytes);
  return bytes.every((b, i) => i === 0 || b >= bytes[i - 1]!);
};

const reportedPaths = (requests: RecordedRequest[]) =>
  requests.flatMap((r) =>
    (r.json as { files: { user_path: string }[] }).files.map((f) => f.user_path),
  );

/** Lets every pending promise and timer of the engine run. */
async function settle() {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('an upload of FormPost batches and a segmented file', () => {
  it('creates, gets grants, stores, reports and finalises, each once and in order', async () => {
    const { plan, http, runner, records, store } = upload({});

    const done = await runner.start();

    const calls = http.requests.map(named);
    expect(calls[0]).toBe('create');
    expect(calls[1]).toBe('bulk');
    expect(calls.at(-1)).toBe('finalise');
    expect([...calls].sort()).toEqual(
      [
        'create',
        'bulk',
        'PUT 000000',
        'PUT 000001',
        'PUT 000002',
        'slo',
        'POST formpost',
        'POST formpost',
        ...calls.filter((c) => c === 'updateFiles'),
        'finalise',
      ].sort(),
    );
    // Storage first, its reports after: the manifest after every segment, a batch's report
    // after its FormPost.
    expect(calls.indexOf('slo')).toBeGreaterThan(calls.indexOf('PUT 000002'));
    expect(calls.indexOf('updateFiles')).toBeGreaterThan(calls.indexOf('POST formpost'));
    expect(reportedPaths(http.sent('POST', urls.updateFiles)).sort()).toEqual([
      'notes/a.txt',
      'notes/b.txt',
      'notes/c.txt',
    ]);

    const [create] = http.sent('POST', urls.create);
    expect(create!.json).toMatchObject({
      contract: 'c1',
      name: 'Dailies',
      message: 'Day 1',
      expected_files: 4,
      expected_size: 210,
      intended_files: [
        { filename: LARGE, size: 150 },
        { filename: 'notes/a.txt', size: 10 },
        { filename: 'notes/b.txt', size: 20 },
        { filename: 'notes/c.txt', size: 30 },
      ],
    });
    expect(create!.headers['idempotency-key'] ?? create!.headers['Idempotency-Key']).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect(http.sent('POST', urls.bulk)[0]!.json).toEqual(plan.bulk);
    expect(http.sent('POST', urls.finalise)[0]!.json).toEqual({
      name: 'Dailies',
      contract: 'c1',
      complete: true,
      force: false,
    });
    // API calls carry the client's headers; storage requests carry none of them.
    for (const request of http.requests) {
      const toApi = request.url.startsWith(API_BASE);
      expect(request.headers['x-client-version'], request.url).toBe(toApi ? 'test' : undefined);
    }

    expect(done).toMatchObject({
      id: 'upload-0',
      status: 'COMPLETED',
      complete: true,
      error: null,
      failedFiles: [],
      progress: { totalFiles: 4, completedFiles: 4, totalBytes: 210, completedBytes: 210 },
    });
    expect(statuses(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
    expect(neverBackward(records)).toBe(true);
    // Sent: nothing is left to resume.
    expect(await store.keys()).toEqual([]);
  });

  it('sends slabs the same way: PUT, then updateslabfile', async () => {
    const { http, runner } = upload({ slabs: true });

    const done = await runner.start();

    const calls = http.requests.map(named);
    expect(calls.filter((c) => c.endsWith('.tar'))).toEqual([expect.stringMatching(/^PUT /)]);
    expect(http.sent('POST', urls.updateSlabFile)).toHaveLength(1);
    expect(reportedPaths(http.sent('POST', urls.updateSlabFile)).sort()).toEqual([
      'notes/a.txt',
      'notes/b.txt',
      'notes/c.txt',
    ]);
    expect(http.sent('POST', OBJECTS)).toEqual([]);
    expect(http.sent('POST', urls.updateFiles)).toEqual([]);
    expect(done.status).toBe('COMPLETED');
  });
});

describe('the person’s controls', () => {
  it('pause stops the requests at once; resume sends only what is missing', async () => {
    const { http, runner, records } = upload({});
    const gate = new Gate();
    http.on('PUT', /000001\?/).once(gate);

    void runner.start();
    await gate.arrived;
    expect(runner.pause()).toBe(true);
    await runner.when((r) => r.status === 'PAUSED');
    await settle();
    const whilePaused = http.requests.length;
    expect(gate.seen[0]!.outcome).toBe('aborted');
    await settle();
    expect(http.requests).toHaveLength(whilePaused);

    expect(runner.resume()).toBe(true);
    const done = await runner.done;

    const afterResume = http.requests.slice(whilePaused).map(named);
    expect(afterResume).not.toContain('PUT 000000');
    expect(afterResume).not.toContain('create');
    expect(afterResume).not.toContain('bulk');
    expect(afterResume.filter((c) => c.startsWith('PUT')).sort()).toEqual([
      'PUT 000001',
      'PUT 000002',
    ]);
    expect(http.sent('PUT', ANY_OBJECT).filter((r) => r.outcome === 201)).toHaveLength(3);
    expect(done.status).toBe('COMPLETED');
    expect(statuses(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'PAUSED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
    expect(neverBackward(records)).toBe(true);
  });

  it('cancel stops the requests, never finalises and forgets the ledger', async () => {
    const { http, runner, store } = upload({});
    const gate = new Gate();
    http.on('PUT', /000001\?/).once(gate);

    void runner.start();
    await gate.arrived;
    expect(await store.keys()).toEqual(['p1']);
    expect(runner.cancel()).toBe(true);
    const done = await runner.done;

    expect(done.cancelled).toBe(true);
    expect(gate.seen[0]!.outcome).toBe('aborted');
    const sent = http.requests.length;
    await settle();
    expect(http.requests).toHaveLength(sent);
    expect(http.sent('POST', urls.finalise)).toEqual([]);
    expect(await store.keys()).toEqual([]);
  });
});

describe('the session ending (signed out, here or in another tab)', () => {
  /** Each storage write (PUT or FormPost) of the upload, by object, answered or not. */
  const storageWrites = (http: ScriptedHttp) =>
    http.requests.filter((r) => r.url.startsWith(OBJECTS) && r.method !== 'HEAD').map(named);

  it('a report refused with 401 pauses the upload, never fails it; resume stores nothing twice', async () => {
    const { http, runner, records } = upload({ pauseWhenSignedOut: true });
    http.on('POST', urls.updateFiles).once({ status: 401 });

    void runner.start();
    const paused = await runner.when((r) => r.status === 'PAUSED');
    expect(paused).toMatchObject({ pausedFor: 'session', error: null, failedFiles: [] });
    await settle();
    const whilePaused = http.requests.length;
    await settle();
    expect(http.requests).toHaveLength(whilePaused);

    expect(runner.resume()).toBe(true);
    const done = await runner.done;

    expect(done.status).toBe('COMPLETED');
    expect(done.progress).toMatchObject({ completedFiles: 4, completedBytes: 210 });
    expect(statuses(records)).not.toContain('FAILED');
    // Every object was written once: the refused report's batch is asked after, then reported.
    expect(storageWrites(http).sort()).toEqual(
      ['POST formpost', 'POST formpost', 'PUT 000000', 'PUT 000001', 'PUT 000002'].sort(),
    );
    const reported = http.sent('POST', urls.updateFiles).filter((r) => r.outcome === 200);
    expect(reportedPaths(reported).sort()).toEqual(['notes/a.txt', 'notes/b.txt', 'notes/c.txt']);
    expect(neverBackward(records)).toBe(true);
  });

  it('a storage request under way when the session ends lands, and is not sent again', async () => {
    const { http, runner } = upload({ pauseWhenSignedOut: true });
    const gate = new Gate();
    http.on('PUT', /000001\?/).once(gate);

    void runner.start();
    await gate.arrived;
    expect(runner.pause('session')).toBe(true);
    expect(runner.record).toMatchObject({ status: 'PAUSED', pausedFor: 'session' });
    await settle();
    // A pause by the person cuts it (see above); the session's lets it finish.
    expect(gate.waiting).toBe(1);
    gate.release({ status: 201, headers: { etag: '"etag-landed"' } });
    await settle();
    const whilePaused = http.requests.length;
    await settle();
    expect(http.requests).toHaveLength(whilePaused);

    expect(runner.resume()).toBe(true);
    const done = await runner.done;

    expect(done.status).toBe('COMPLETED');
    expect(http.sent('PUT', /000001\?/)).toHaveLength(1);
    const [slo] = http.sent('POST', urls.slo);
    const segments = (slo!.json as { slo_content: { etag: string }[] }).slo_content;
    expect(segments.map((s) => s.etag)).toContain('etag-landed');
  });

  it('a finalise refused with 401 pauses; resume finalises', async () => {
    const { http, runner, records } = upload({ pauseWhenSignedOut: true });
    http.on('POST', urls.finalise).once({ status: 401 });

    void runner.start();
    const paused = await runner.when((r) => r.status === 'PAUSED');
    expect(paused.pausedFor).toBe('session');
    expect(runner.actions).toMatchObject({ resume: true, retry: false, complete: false });

    expect(runner.resume()).toBe(true);
    const done = await runner.done;

    expect(done.status).toBe('COMPLETED');
    expect(http.sent('POST', urls.finalise).map((r) => r.outcome)).toEqual([401, 200]);
    expect(statuses(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'PAUSED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
  });

  it('without pauseWhenSignedOut (an API key), a 401 still stops the upload', async () => {
    const { http, runner } = upload({ abortThresholds: { checkEveryMs: 0, minResponses: 1 } });
    http.on('POST', urls.updateFiles).reply({ status: 401 });

    void runner.start();
    const failed = await runner.when((r) => r.status === 'FAILED');
    expect(failed.pausedFor).toBeNull();
  });
});

describe('failures', () => {
  it('a file that keeps failing ends FAILED; Complete force-finalises without it', async () => {
    const { http, runner, clock } = upload({});
    http.on('PUT', /000001\?/).reply({ status: 503 });

    void runner.start();
    const failed = await runner.when((r) => r.status === 'FAILED');

    expect(failed.error).toBe('We failed to upload some of your files');
    expect(failed.failedFiles.map((f) => f.path)).toEqual([LARGE]);
    expect(failed.progress.completedFiles).toBe(3);
    expect(http.sent('PUT', /000001\?/)).toHaveLength(6);
    expect(clock.slept).toEqual(expect.arrayContaining([1000, 2000, 4000, 8000, 16000]));
    expect(http.sent('POST', urls.slo)).toEqual([]);
    expect(http.sent('POST', urls.finalise)).toEqual([]);
    expect(runner.actions).toMatchObject({ retry: true, complete: true, cancel: true });

    expect(runner.complete()).toBe(true);
    const done = await runner.done;

    expect(
      http.sent('POST', urls.finalise).map((r) => (r.json as { force: boolean }).force),
    ).toEqual([true]);
    expect(done.status).toBe('FORCE_COMPLETED');
  });

  it('Retry after a failure sends only the failed file’s missing segment', async () => {
    const { http, runner } = upload({});
    const failing = http.on('PUT', /000001\?/).reply({ status: 503 });

    void runner.start();
    await runner.when((r) => r.status === 'FAILED');
    // Storage is back: the script's usual answers take the requests again.
    failing.clear();
    const before = http.requests.length;
    expect(runner.retry()).toBe(true);
    const done = await runner.done;

    expect(http.requests.slice(before).map(named)).toEqual(['PUT 000001', 'slo', 'finalise']);
    expect(done.status).toBe('COMPLETED');
    expect(done.failedFiles).toEqual([]);
  });

  it('storage refusing every request stops the upload early through the abort policy', async () => {
    const { http, runner } = upload({
      abortThresholds: { checkEveryMs: 0, minResponses: 4 },
    });
    http.on('PUT', ANY_OBJECT).reply({ status: 403 });
    http.on('POST', OBJECTS).reply({ status: 403 });

    void runner.start();
    const failed = await runner.when((r) => r.status === 'FAILED');

    expect(failed.error).toBe('Uploads failed to complete');
    expect(failed.failedFiles).toHaveLength(4);
    // Far fewer than the six attempts each of the four jobs would make without it.
    expect(http.sent('PUT', ANY_OBJECT).length).toBeLessThan(6);
    // Each refusal renewed the grants before the next attempt.
    expect(http.sent('POST', urls.bulk).length).toBeGreaterThan(1);
  });

  it('a storage 403 renews the grants and the refused requests go again with the new ones', async () => {
    // Only the renewal is judged here: the abort policy stops at the first refusals otherwise.
    const { http, runner, script } = upload({ abortThresholds: { minResponses: 1000 } });
    // The first grants turn out dead: storage refuses whatever they signed.
    http.on('PUT', /temp_url_sig=sig-1%3A/).reply({ status: 403 });
    script.routes.bulk
      .once((request) => ({ json: bulkAnswer(request.json as never, 'sig-1') }))
      .reply((request) => ({ json: bulkAnswer(request.json as never, 'sig-2') }));

    const done = await runner.start();

    expect(done.status).toBe('COMPLETED');
    expect(http.sent('POST', urls.bulk).length).toBeGreaterThan(1);
    const puts = http.sent('PUT', ANY_OBJECT);
    expect(puts[0]!.outcome).toBe(403);
    // Requests waiting for the worker were signed once they had it, after the renewal: only the
    // first went out with the refused grants.
    const grantOf = (r: RecordedRequest) => r.query.get('temp_url_sig')!.split(':')[0];
    expect(puts.filter((r) => grantOf(r) === 'sig-1')).toHaveLength(1);
    for (const name of ['000000', '000001', '000002']) {
      const stored = puts.filter((r) => r.path.endsWith(name) && r.outcome === 201);
      expect(stored.map(grantOf), name).toEqual(['sig-2']);
    }
  });

  it('lists every slab and segment in bulk, and PUTs each with its own grant', async () => {
    const { plan, http, runner } = upload({ slabs: true });

    const done = await runner.start();

    expect(done.status).toBe('COMPLETED');
    const listed = (http.sent('POST', urls.bulk)[0]!.json as { objects: unknown[] }).objects;
    expect(listed).toEqual([
      ...plan.slabs.map((slab) => ({ name: slab.name, size: slab.size })),
      ...plan.largeFiles[0]!.segments.map((s) => ({ name: s.name, size: s.end - s.start })),
    ]);
    expect(listed).toHaveLength(4);
    // The scripted store, as Swift, refuses a PUT signed for another object or the prefix.
    for (const put of http.sent('PUT', ANY_OBJECT)) {
      expect(put.outcome).toBe(201);
      expect(put.query.has('temp_url_prefix')).toBe(false);
      expect(put.query.get('temp_url_sig')).toBe(`sig-1:${put.path.slice(OBJECTS_PATH.length)}`);
    }
  });

  it('a renewal lists only the objects still to send', async () => {
    const { plan, http, runner } = upload({ abortThresholds: { minResponses: 1000 } });
    // The last segment's first PUT is refused: the grants are renewed with two segments stored.
    http.on('PUT', /000002\?/).once({ status: 403 });

    const done = await runner.start();

    expect(done.status).toBe('COMPLETED');
    const bodies = http
      .sent('POST', urls.bulk)
      .map((r) => r.json as { objects: { name: string }[] });
    expect(bodies).toHaveLength(2);
    const segments = plan.largeFiles[0]!.segments.map((s) => s.name);
    expect(bodies[0]!.objects.map((o) => o.name)).toEqual(segments);
    expect(bodies[1]!.objects.map((o) => o.name)).toEqual([segments[2]]);
  });

  it('a finalise that finds a file missing is INCOMPLETE; Retry sends that file and finalises', async () => {
    const { http, runner, script } = upload({});
    script.routes.finalise.once({
      status: 400,
      json: { detail: 'Some files are missing', missing_files: ['notes/c.txt'] },
    });

    void runner.start();
    const incomplete = await runner.when((r) => r.status === 'INCOMPLETE');
    expect(incomplete.error).toBe('Some files are missing');
    const before = http.requests.length;
    expect(runner.retry()).toBe(true);
    const done = await runner.done;

    // The batch's grant is still good: no new grants.
    expect(http.requests.slice(before).map(named)).toEqual([
      'POST formpost',
      'updateFiles',
      'finalise',
    ]);
    expect(
      reportedPaths(http.requests.slice(before).filter((r) => r.url === urls.updateFiles)),
    ).toEqual(['notes/c.txt']);
    expect(done.status).toBe('COMPLETED');
  });
});

describe('a full storage (507 Insufficient Storage)', () => {
  it('pauses the upload, tries again by itself and resumes once space returns, sending nothing stored again', async () => {
    const { http, runner, records, clock } = upload({});
    // Storage is full for the segment's first two tries; then an operator frees space.
    http.on('PUT', /000001\?/).once({ status: 507 }, { status: 507 });

    void runner.start();
    const paused = await runner.when((r) => r.status === 'PAUSED');

    expect(paused.pausedFor).toBe('storage_full');
    expect(pauseMessages[paused.pausedFor!]).toBe('Storage is full: the upload is paused');
    expect(paused.failedFiles).toEqual([]);
    expect(paused.error).toBeNull();
    const done = await runner.done;

    expect(done.status).toBe('COMPLETED');
    expect(done.failedFiles).toEqual([]);
    expect(done.pausedFor).toBeNull();
    // Each refusal paused the upload, never retried at once: it waited a probe delay, longer each time.
    expect(clock.slept).toEqual(STORAGE_FULL_PROBE_DELAYS_MS.slice(0, 2));
    expect(statuses(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'PAUSED',
      'UPLOADING',
      'PAUSED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
    expect(records.filter((r) => r.status === 'PAUSED').map((r) => r.pausedFor)).toEqual([
      'storage_full',
      'storage_full',
    ]);
    // What was stored before storage filled up went once.
    expect(http.sent('PUT', /000001\?/).map((r) => r.outcome)).toEqual([507, 507, 201]);
    expect(http.sent('PUT', ANY_OBJECT).filter((r) => r.outcome === 201)).toHaveLength(3);
    expect(http.sent('POST', OBJECTS).filter((r) => r.outcome === 201)).toHaveLength(
      http.sent('POST', OBJECTS).length,
    );
    expect(neverBackward(records)).toBe(true);
  });

  it('a manifest the API cannot write for lack of space (507) pauses the upload too', async () => {
    const { http, runner } = upload({});
    http.on('POST', urls.slo).once(...Array.from({ length: 4 }, () => ({ status: 507 })));

    void runner.start();
    const paused = await runner.when((r) => r.status === 'PAUSED');
    expect(paused.pausedFor).toBe('storage_full');
    const done = await runner.done;

    expect(done.status).toBe('COMPLETED');
    expect(http.sent('PUT', ANY_OBJECT).filter((r) => r.outcome === 201)).toHaveLength(3);
  });

  it('the person pausing is told apart from a full storage', async () => {
    const { http, runner } = upload({});
    const gate = new Gate();
    http.on('PUT', /000001\?/).once(gate);

    void runner.start();
    await gate.arrived;
    runner.pause();
    expect(runner.record.pausedFor).toBe('person');
    runner.resume();
    expect((await runner.done).status).toBe('COMPLETED');
  });
});

describe('resuming from a ledger', () => {
  it('sends nothing already stored or reported', async () => {
    const store = new MemoryResumeStore<UploadLedger>();
    const kill = new AbortController();
    const first = upload({ signal: kill.signal, workers: 2 }, store);
    const gate = new Gate();
    first.http.on('PUT', /000001\?/).once(gate);

    void first.runner.start();
    await gate.arrived;
    // The batches reported and the last segment stored while the second one is on its way.
    await until(
      () =>
        reportedPaths(first.http.sent('POST', urls.updateFiles).filter((r) => r.outcome === 200))
          .length === 3 && first.http.sent('PUT', /000002\?/)[0]?.outcome === 201,
    );
    kill.abort(new Error('the tab closed'));
    await expect(first.runner.done).rejects.toThrow('the tab closed');
    const ledger = (await store.get(PKG.slug))!;
    expect(Object.keys(ledger.largeFiles[LARGE]!.segments).sort()).toEqual(['0', '2']);

    const before = first.http.requests.length;
    const second = upload(
      { package: ledger.package, http: first.http, clock: first.clock, workers: 2 },
      store,
    );
    const done = await second.runner.start();

    const resumed = first.http.requests.slice(before);
    expect(resumed.map(named).sort()).toEqual(
      ['bulk', 'HEAD 000000', 'HEAD 000002', 'PUT 000001', 'slo', 'finalise'].sort(),
    );
    // Grants only for what is left: the batches are reported. The segments an earlier run
    // stored are listed still, since a HEAD may find one missing and it is PUT again.
    expect(resumed[0]!.json).toEqual({
      batches: [],
      large_file_total_size: 150,
      objects: second.plan.largeFiles[0]!.segments.map((s) => ({
        name: s.name,
        size: s.end - s.start,
      })),
    });
    expect(done.status).toBe('COMPLETED');
    expect(done.progress).toMatchObject({ completedFiles: 4, completedBytes: 210 });
    expect(done.progress.resumingBytes).toBe(64 + 22 + 60);
  });
});

/** Waits for `test` to hold, letting the engine run in between. */
async function until(test: () => boolean) {
  for (let i = 0; i < 200 && !test(); i++) await settle();
  expect(test()).toBe(true);
}
