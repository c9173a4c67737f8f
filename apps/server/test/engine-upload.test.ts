import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultUploadLimits,
  fileSource,
  FetchHttpClient,
  JsonFileResumeStore,
  MB,
  nodeUploadPorts,
  planUpload,
  systemClock,
  UploadQueue,
  UploadRunner,
  walkPaths,
  type ByteSource,
  type Clock,
  type HttpClient,
  type ResumeStore,
  type UploadLedger,
  type UploadOptions,
  type UploadPlan,
  type UploadRecord,
} from '@filerunner/transfer/node';
import {
  countingHttpClient,
  fastClock,
  isStorageWrite,
  sourceDigests,
  sourceXxh128,
  storedFiles,
  writePatternedFile,
  writeSmallFiles,
  type SeenRequest,
} from './engine-fixtures';
import { describeOnSwift, startTestServer, type TestServer } from './harness';
import { listeningSender, testHttpClient } from './uploader';

// The upload engine through its Node entry against the real server and store: files on disk,
// the HTTP client on fetch, a JSON ledger file, xxh128 by hash-wasm.

const GiB = 1024 ** 3;
const HOUR = 3_600_000;

let dataDir: string;
/** One 1 GiB file and 2,000 small files in nested folders. */
let bigSources: ByteSource[];
/** A 48 MB file and 300 small files: quick enough to send again and again. */
let mediumSources: ByteSource[];
/** With these, the 48 MB file goes as 4 MiB segments and the small files in 30 batches. */
const mediumLimits = {
  ...defaultUploadLimits,
  largeFileThreshold: 8 * MB,
  baseChunkSize: 4 * 1024 * 1024,
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-engine-'));
  await writePatternedFile(path.join(dataDir, 'big/footage/A001_C002.mov'), GiB, 1);
  await writeSmallFiles(path.join(dataDir, 'big/frames'), 2000);
  bigSources = await walkPaths([
    path.join(dataDir, 'big/footage'),
    path.join(dataDir, 'big/frames'),
  ]);
  await writePatternedFile(path.join(dataDir, 'medium/takes/take 1.mov'), 48 * MB, 2);
  await writeSmallFiles(path.join(dataDir, 'medium/stills'), 300);
  mediumSources = await walkPaths([
    path.join(dataDir, 'medium/takes'),
    path.join(dataDir, 'medium/stills'),
  ]);
}, 120_000);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** A listening server with a contract whose sender may send to its receiver. */
async function senderOn(server: TestServer) {
  const { origin, fx } = await listeningSender(server, 'Crew');
  /** A runner sending `plan` as a new package, with the Node ports and the given changes. */
  const runner = (
    plan: UploadPlan,
    options: Partial<UploadOptions> & {
      http?: HttpClient;
      clock?: Clock;
      ledgerFile?: string;
      resumeStore?: ResumeStore<UploadLedger>;
    } = {},
  ) => {
    const { http, clock, ledgerFile, resumeStore, ...rest } = options;
    const ports = nodeUploadPorts({ ledgerFile, http: http ?? new FetchHttpClient() });
    return new UploadRunner(
      {
        api: { baseUrl: `${origin}/api`, headers: fx.sender.headers },
        plan,
        package: {
          create: {
            contract: fx.contract.slug,
            name: 'Dailies',
            recipients: [{ id: fx.receiver.user.id }],
            valid_from: new Date().toISOString(),
            valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
          },
        },
        ...rest,
      },
      {
        ...ports,
        http: testHttpClient(server, origin, ports.http).http,
        ...(clock ? { clock } : {}),
        ...(resumeStore ? { resumeStore } : {}),
      },
    );
  };
  return { origin, fx, runner };
}

/** Every file of `sources` is stored byte for byte, with the xxh128 of its bytes. */
async function expectStoredAsSent(server: TestServer, slug: string, sources: ByteSource[]) {
  const { status, stored } = await storedFiles(server, slug);
  expect(status).toBe('complete');
  expect([...stored.keys()].sort()).toEqual(sources.map((s) => s.path).sort());
  const digests = await sourceDigests(sources);
  const mismatched = sources.filter((s) => stored.get(s.path)!.sha256 !== digests.get(s.path));
  expect(mismatched.map((s) => s.path)).toEqual([]);
  const hashes = await sourceXxh128(sources);
  for (const [file, hash] of hashes) expect(stored.get(file)!.xxh128, file).toBe(hash);
  for (const { xxh128 } of stored.values()) expect(xxh128).toMatch(/^[0-9a-f]{32}$/);
}

/** Every record the runner shows, to check what the person saw over the whole upload. */
function recordsOf(runner: UploadRunner): UploadRecord[] {
  const seen: UploadRecord[] = [];
  runner.subscribe((record) => seen.push(record));
  return seen;
}

function expectNeverBackward(records: UploadRecord[]) {
  const bytes = records.map((r) => r.progress.completedBytes);
  const files = records.map((r) => r.progress.completedFiles);
  expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
  expect(files).toEqual([...files].sort((a, b) => a - b));
}

const statusesOf = (records: UploadRecord[]) =>
  records.map((r) => r.status).filter((s, i, all) => s !== all[i - 1]);

describe('the upload engine against the embedded store', () => {
  let server: TestServer;
  let env: Awaited<ReturnType<typeof senderOn>>;
  beforeAll(async () => {
    server = await startTestServer();
    env = await senderOn(server);
  });
  afterEach(() => server.storeFaults!.set(null));
  afterAll(() => server?.close());

  it('sends a 1 GiB file and 2,000 small files in folders, every stored byte as on disk', async () => {
    const plan = planUpload(bigSources);
    expect(plan.totalFiles).toBe(2001);
    expect(plan.largeFiles[0]!.segments).toHaveLength(11);
    const runner = env.runner(plan);
    const records = recordsOf(runner);
    const record = await runner.start();

    expect(record).toMatchObject({ status: 'COMPLETED', complete: true, failedFiles: [] });
    expect(record.progress).toMatchObject({
      totalFiles: 2001,
      completedFiles: 2001,
      completedBytes: plan.totalBytes,
      resumingBytes: 0,
    });
    expect(statusesOf(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
    expectNeverBackward(records);
    await expectStoredAsSent(server, runner.package!.slug, bigSources);
  }, 180_000);

  it('retries through 30 % of storage requests failing and others cut mid-body, and completes', async () => {
    // Spread evenly, these shares fail 3 requests in 10 and cut about 1 in 16 of the others.
    server.storeFaults!.set({ fail: 0.3, drop: 0.07 });
    // Retry delays take no time here: what counts is that every failure is retried.
    const runner = env.runner(planUpload(mediumSources, { limits: mediumLimits }), {
      clock: fastClock(),
    });
    const records = recordsOf(runner);
    const record = await runner.start();

    expect(record.status).toBe('COMPLETED');
    const faults = server.storeFaults!.counts();
    expect(faults.failed).toBeGreaterThan(10);
    expect(faults.dropped).toBeGreaterThan(0);
    expect(statusesOf(records)).toContain('RETRYING');
    expectNeverBackward(records);
    await expectStoredAsSent(server, runner.package!.slug, mediumSources);
  }, 120_000);

  it('keeps in its resume record the hashes of files not yet reported, not of every file sent', async () => {
    // The record is written whole again and again as the upload goes; a slab of files reported
    // no longer needs their hashes, so the record stays the size of the work under way.
    const written: UploadLedger[] = [];
    const resumeStore: ResumeStore<UploadLedger> = {
      get: async () => undefined,
      keys: async () => [],
      delete: async () => undefined,
      put: async (_key, ledger) => void written.push(structuredClone(ledger)),
    };
    const plan = planUpload(mediumSources, {
      useSlabFiles: true,
      limits: { ...mediumLimits, maxSlabFiles: 5 },
    });
    expect(plan.slabs).toHaveLength(60);
    const runner = env.runner(plan, { resumeStore, workers: 2 });
    expect((await runner.start()).status).toBe('COMPLETED');

    const mostHashes = Math.max(...written.map((ledger) => Object.keys(ledger.hashes).length));
    expect(mostHashes).toBeGreaterThan(0);
    expect(mostHashes).toBeLessThan(mediumSources.length / 3);
    const last = written.at(-1)!;
    expect(last.finalised).toBe(true);
    expect(Object.values(last.slabs).filter((slab) => !slab.reported)).toEqual([]);
    expect(last.hashes).toEqual({});
    await expectStoredAsSent(server, runner.package!.slug, mediumSources);
  }, 120_000);

  it('stops by the abort policy when every storage request fails, and Retry completes it later', async () => {
    server.storeFaults!.set({ fail: 1 });
    const counting = countingHttpClient(new FetchHttpClient());
    const runner = env.runner(planUpload(mediumSources, { limits: mediumLimits }), {
      http: counting.http,
    });
    void runner.start();
    const failed = await runner.when((r) => r.status === 'FAILED');

    expect(failed.error).toBe('Uploads failed to complete');
    expect(failed.failedFiles).toHaveLength(mediumSources.length);
    expect(failed.progress.completedFiles).toBe(0);
    // It stopped on the error rate, long before every file spent its five retries.
    const storageAnswers = counting.answered.filter((s) => s.path.startsWith('/v1/'));
    expect(storageAnswers.length).toBeLessThan(100);
    // Every answer was the failure (requests cut when the upload stopped have none).
    expect(storageAnswers.filter((s) => s.status !== 0).every((s) => s.status === 503)).toBe(true);
    // Nothing arrived, so it cannot be completed without the files.
    expect(runner.actions).toMatchObject({ retry: true, complete: false, cancel: true });
    expect(runner.complete()).toBe(false);

    server.storeFaults!.set(null);
    expect(runner.retry()).toBe(true);
    const record = await runner.done;
    expect(record).toMatchObject({ status: 'COMPLETED', failedFiles: [] });
    await expectStoredAsSent(server, runner.package!.slug, mediumSources);
  }, 120_000);

  it('pauses without a request in flight and resumes where it stopped', async () => {
    server.storeFaults!.set({ delayMs: 40 });
    const counting = countingHttpClient(new FetchHttpClient());
    const plan = planUpload(mediumSources, { limits: mediumLimits });
    const runner = env.runner(plan, { http: counting.http, workers: 4 });
    const records = recordsOf(runner);
    void runner.start();
    await runner.when((r) => r.progress.completedFiles >= 50);
    expect(runner.pause()).toBe(true);
    expect(runner.record.status).toBe('PAUSED');
    expect(runner.actions).toMatchObject({ pause: false, resume: true, cancel: true });

    // Requests under way are cut; after that nothing is sent while paused.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const startedWhilePaused = counting.started.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(counting.started.length).toBe(startedWhilePaused);

    expect(runner.resume()).toBe(true);
    const record = await runner.done;
    expect(record.status).toBe('COMPLETED');
    expect(statusesOf(records)).toEqual([
      'QUEUED',
      'UPLOADING',
      'PAUSED',
      'UPLOADING',
      'UPLOADED',
      'COMPLETING',
      'COMPLETED',
    ]);
    expectNeverBackward(records);
    // Nothing stored before the pause was stored again after it.
    const stored = counting.answered.filter((s) => isStorageWrite(s) && s.status === 201);
    const units = plan.batches.length + plan.largeFiles[0]!.segments.length;
    expect(stored).toHaveLength(units);
    await expectStoredAsSent(server, runner.package!.slug, mediumSources);
  }, 120_000);

  it('cancels: nothing more is sent, the package is never sent, and the next upload in the queue starts', async () => {
    server.storeFaults!.set({ delayMs: 40 });
    const ledgerFile = path.join(dataDir, 'cancel-ledgers.json');
    const queue = new UploadQueue();
    const counting = countingHttpClient(new FetchHttpClient());
    const plan = planUpload(mediumSources, { limits: mediumLimits });
    const first = env.runner(plan, { http: counting.http, queue, ledgerFile, workers: 4 });
    const next = env.runner(planUpload(mediumSources.slice(-20)), { queue, ledgerFile });
    void first.start();
    void next.start();
    await first.when((r) => r.progress.completedFiles >= 30);
    expect(next.record.status).toBe('QUEUED');

    expect(first.cancel()).toBe(true);
    const cancelled = await first.done;
    expect(cancelled.cancelled).toBe(true);
    const sentBefore = counting.started.length;
    const slug = first.package!.slug;
    expect(await new JsonFileResumeStore(ledgerFile).get(slug)).toBeUndefined();

    const record = await next.done;
    expect(record.status).toBe('COMPLETED');
    expect(counting.started.length).toBe(sentBefore);
    const { status } = await storedFiles(server, slug);
    expect(status).toBe('uploading');
  }, 120_000);

  it('force-completes without a file that cannot be read, only after the failure', async () => {
    const doomedPath = path.join(dataDir, 'doomed/lost.mov');
    await writePatternedFile(doomedPath, 10 * MB, 3);
    const doomed = await fileSource(doomedPath, 'lost.mov');
    await unlink(doomedPath);
    const kept = mediumSources.slice(-25);
    // Retries take no time here; the abort policy, which judges answers over time, is kept
    // out of this test (its own test is above).
    const runner = env.runner(planUpload([...kept, doomed], { limits: mediumLimits }), {
      clock: fastClock(),
      abortThresholds: { minResponses: Infinity },
    });
    void runner.start();
    const failed = await runner.when((r) => r.status === 'FAILED');

    expect(failed.failedFiles).toEqual([
      { path: 'lost.mov', size: 10 * MB, lastModified: doomed.lastModified },
    ]);
    expect(failed.error).toBe('We failed to upload some of your files');
    expect(failed.progress.completedFiles).toBe(25);
    expect(runner.actions).toMatchObject({ complete: true, retry: true, cancel: true });

    expect(runner.complete()).toBe(true);
    const record = await runner.done;
    expect(record).toMatchObject({ status: 'FORCE_COMPLETED', complete: true });
    const { status, stored } = await storedFiles(server, runner.package!.slug);
    expect(status).toBe('force_completed');
    expect(stored.size).toBe(25);
  }, 120_000);

  it('asks for fresh grants when they are about to run out, and sends on with them', async () => {
    let grantsAsked = 0;
    const counting = countingHttpClient(new FetchHttpClient(), (seen) => {
      if (seen.path.endsWith('/bulk/') && seen.status === 200) grantsAsked++;
    });
    // Once the first grants are in, the clock reads 58 minutes on: they run out in two.
    const clock = {
      now: () => Date.now() + (grantsAsked === 1 ? 58 * 60_000 : 0),
      sleep: systemClock.sleep,
    };
    const runner = env.runner(planUpload(mediumSources.slice(-40)), {
      http: counting.http,
      clock,
    });
    expect((await runner.start()).status).toBe('COMPLETED');
    expect(grantsAsked).toBe(2);
    await expectStoredAsSent(server, runner.package!.slug, mediumSources.slice(-40));
  });

  it('after a crash mid-upload, a new run sends only what the ledger does not hold', async () => {
    server.storeFaults!.set({ delayMs: 20 });
    const ledgerFile = path.join(dataDir, 'crash-ledgers.json');
    const plan = planUpload(mediumSources, { limits: mediumLimits });
    const crash = new AbortController();
    let segmentsStored = 0;
    const firstRun = countingHttpClient(new FetchHttpClient(), (seen) => {
      if (seen.method === 'PUT' && seen.path.includes('/segments/') && seen.status === 201) {
        if (++segmentsStored === 5) crash.abort(new Error('the process died'));
      }
    });
    const first = env.runner(plan, {
      http: firstRun.http,
      ledgerFile,
      signal: crash.signal,
      workers: 3,
    });
    await expect(first.start()).rejects.toThrow('the process died');
    const slug = first.package!.slug;
    const ledger = (await new JsonFileResumeStore<UploadLedger>(ledgerFile).get(slug))!;
    const recordedSegments = Object.keys(ledger.largeFiles['takes/take 1.mov']?.segments ?? {});
    expect(recordedSegments.length).toBeGreaterThanOrEqual(3);
    const recordedBatches = Object.keys(ledger.batches);

    // The files are picked again (the same identities); the ledger names the package.
    const again = await walkPaths([
      path.join(dataDir, 'medium/takes'),
      path.join(dataDir, 'medium/stills'),
    ]);
    const secondRun = countingHttpClient(new FetchHttpClient());
    const second = env.runner(planUpload(again, { limits: mediumLimits }), {
      http: secondRun.http,
      ledgerFile,
      package: ledger.package,
    });
    const record = await second.start();
    expect(record.status).toBe('COMPLETED');
    expect(record.progress.resumingBytes).toBeGreaterThanOrEqual(
      recordedSegments.length * mediumLimits.baseChunkSize,
    );

    const segments = plan.largeFiles[0]!.segments;
    const written = secondRun.started.filter(isStorageWrite).map((s) => s.path);
    const writtenSegments = segments.filter((s) => written.some((p) => p.endsWith(s.name)));
    // Segments recorded as stored were checked by HEAD, not sent again; the rest were sent.
    expect(writtenSegments.map((s) => String(s.index)).sort()).toEqual(
      segments
        .map((s) => String(s.index))
        .filter((i) => !recordedSegments.includes(i))
        .sort(),
    );
    const heads = secondRun.started.filter((s: SeenRequest) => s.method === 'HEAD');
    expect(heads.length).toBeGreaterThanOrEqual(recordedSegments.length);
    const formPosts = written.filter((p) => !p.includes('/segments/'));
    expect(formPosts).toHaveLength(plan.batches.length - recordedBatches.length);
    expect(await new JsonFileResumeStore(ledgerFile).get(slug)).toBeUndefined();
    await expectStoredAsSent(server, slug, mediumSources);
  }, 120_000);
});

describeOnSwift('the upload engine against OpenStack Swift (SWIFT_AUTH_URL)', (startServer) => {
  it('sends a 1 GiB file and 2,000 small files in folders, every stored byte as on disk', async () => {
    const server = await startServer();
    const env = await senderOn(server);
    const runner = env.runner(planUpload(bigSources));
    const record = await runner.start();
    expect(record).toMatchObject({ status: 'COMPLETED', failedFiles: [] });
    await expectStoredAsSent(server, runner.package!.slug, bigSources);
  }, 300_000);
});
