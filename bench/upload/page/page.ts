import {
  intendedFilesOf,
  planUpload,
  UploadRunner,
  type FileHasher,
  type HttpClient,
  type ResumeStore,
  type SlabPacker,
  type UploadLedger,
} from '@filerunner/transfer';
import {
  FileHandleSource,
  IndexedDbResumeStore,
  sourcesFromDirectoryHandle,
  sourcesFromFileList,
  WorkerFileHasher,
  XhrHttpClient,
  type PickedSource,
} from '@filerunner/transfer/browser';
import { api, createRouteClient } from '@filerunner/protocol';
import {
  objectPutGrants,
  sliceObjects,
  wholeFileObjects,
  type BaselineObject,
} from '../baseline-grants';
import type { EngineRun, TimelineEvent, UploadBenchPage, WriteOrder } from './api';
import { engineSent } from './engine-report';

/**
 * The upload bench's page, not part of the product. It sends picked files two ways: through the
 * transfer engine exactly as the web app runs it (XHR, IndexedDB ledgers, xxh128 and slab
 * packing in a worker; see apps/web/src/features/transfers/browser-upload-platform.ts), and as a
 * bare page would, with fetch PUTs of the same `File`s to a signed prefix grant. The bench drives it with
 * `page.evaluate`; the files come from the origin-private file system, written beforehand.
 */

const CLIENT_VERSION = 'bench';
const HOUR = 3_600_000;
/** Where an upload stops moving by itself: done, or waiting for the person. */
const settled = ['COMPLETED', 'FORCE_COMPLETED', 'FAILED', 'INCOMPLETE'];
const STALL_MS = 60_000;

/** The API as the page's app calls it, through the route client over the engine's XHR client. */
const client = createRouteClient({
  http: new XhrHttpClient(),
  baseUrl: '/api',
  clientVersion: CLIENT_VERSION,
});

/** Writes files into the origin-private file system in a worker (unmeasured preparation). */
function writeFiles(order: WriteOrder): Promise<void> {
  const worker = new Worker(new URL('./opfs-writer.ts', import.meta.url), { type: 'module' });
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ok: boolean; message?: string }>) => {
      worker.terminate();
      if (data.ok) resolve();
      else reject(new Error(data.message));
    };
    // A worker that fails to load or dies answers nothing: fail the bench instead of hanging it.
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`the file writer failed: ${event.message}`));
    };
    worker.postMessage(order);
  });
}

/** The picked files, by the name they were picked under; picking is not measured. */
const picked = new Map<string, PickedSource[]>();

/** Picks a file or folder of the private file system, as the picker's handles give it. */
async function pick(path: string): Promise<{ files: number; bytes: number }> {
  const parts = path.split('/');
  let folder = await navigator.storage.getDirectory();
  for (const name of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(name);
  const name = parts.at(-1)!;
  const entry = await folder.getFileHandle(name).catch(() => folder.getDirectoryHandle(name));
  const sources =
    entry.kind === 'file'
      ? [await FileHandleSource.open(entry as FileSystemFileHandle, name)]
      : await sourcesFromDirectoryHandle(entry as FileSystemDirectoryHandle);
  return keepPicked(path, sources);
}

/** Keeps `sources` as picked under `path`; answers how many files and bytes they are. */
function keepPicked(path: string, sources: PickedSource[]) {
  picked.set(path, sources);
  return { files: sources.length, bytes: sources.reduce((sum, s) => sum + s.size, 0) };
}

/**
 * Takes, as picked under `path`, the files the bench set on the page's file input `inputId`
 * (paths on disk, through the DevTools protocol): what the Share screen gets when a sender picks
 * a file or a folder from disk with its input or drops one.
 */
function pickInput(path: string, inputId: string): { files: number; bytes: number } {
  const input = document.getElementById(inputId) as HTMLInputElement;
  return keepPicked(path, sourcesFromFileList(input.files!));
}

/** Creates a package of `sources` for the demo recipient, as the Share screen does. */
async function createPackage(name: string, files: ReturnType<typeof intendedFilesOf>) {
  const groups = await client.call(api.recipients.list, { params: { slug: 'demo' } });
  const recipient = groups.flatMap((g) => g.members).find((m) => m.email.startsWith('recipient'));
  return client.call(api.packages.create, {
    body: {
      contract: 'demo',
      name,
      recipients: [{ id: recipient!.id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
      ...files,
    },
  });
}

/** The engine's requests now on their way (method and path), named when an upload stalls. */
const inFlight = new Set<string>();

/**
 * When each request, hash and ledger write started and ended, while the bench profiles a
 * transfer (`--profile`); null otherwise, so a measured run does not pay for it.
 */
let timeline: TimelineEvent[] | null = null;

/** Runs `work` and, while a timeline is kept, records when it started and ended. */
function timed<T>(kind: TimelineEvent['kind'], name: string, work: () => Promise<T>): Promise<T> {
  const events = timeline;
  if (!events) return work();
  const start = performance.now();
  const done = work();
  void done
    .then(
      () => true,
      () => false,
    )
    .then((ok) => events.push({ kind, name, start, end: performance.now(), ok }));
  return done;
}

/** An HTTP client that counts what it sends: storage requests apart from API calls. */
function counted(inner: HttpClient) {
  const requests = { storage: 0, api: 0 };
  const http: HttpClient = {
    request(request) {
      const path = new URL(request.url, location.href).pathname;
      if (path.startsWith('/api/')) requests.api++;
      else requests.storage++;
      const name = `${request.method} ${path}`;
      inFlight.add(name);
      const kind = path.startsWith('/api/') ? 'api' : 'storage';
      const sent = timed(kind, name, () => inner.request(request));
      void sent.finally(() => inFlight.delete(name)).catch(() => undefined);
      return sent;
    },
  };
  return { http, requests };
}

// One platform for the page, as the web app makes one: the worker and database stay open.
const ledgers = new IndexedDbResumeStore<UploadLedger>();
const workerHasher = new WorkerFileHasher();
// The same two, with their hashes and ledger writes on the timeline while one is kept.
const resumeStore: ResumeStore<UploadLedger> = {
  get: (key) => ledgers.get(key),
  put: (key, ledger) => timed('ledger', key, () => ledgers.put(key, ledger)),
  delete: (key) => ledgers.delete(key),
  keys: () => ledgers.keys(),
};
const hasher: FileHasher = {
  xxh128: (source, signal) => timed('hash', source.path, () => workerHasher.xxh128(source, signal)),
};
const slabPacker: SlabPacker = {
  pack: (parts, hashed, signal) =>
    timed('pack', `${parts.length} parts`, () => workerHasher.pack(parts, hashed, signal)),
};

/** Runners made ready by `prepareEngine` and object grants by `prepareBare`, by picked path. */
const runners = new Map<
  string,
  { runner: UploadRunner; report: () => Omit<EngineRun, 'seconds' | 'files'> }
>();
const grants = new Map<string, { objects: BaselineObject[]; urlOf: (name: string) => string }>();

/**
 * Makes the engine ready to send the picked files with the contract's settings (slab files on
 * or off, its number of upload workers): plans them and creates the package, as the Share
 * screen does before the upload starts. Not measured.
 */
async function prepareEngine(path: string) {
  const sources = picked.get(path)!;
  const contracts = await client.call(api.contracts.list);
  const { settings } = contracts.find((c) => c.slug === 'demo')!;
  const plan = planUpload(sources, { useSlabFiles: settings.use_slab_files });
  const pkg = await createPackage(`Engine ${path}`, intendedFilesOf(plan));
  const { http, requests } = counted(new XhrHttpClient());
  const runner = new UploadRunner(
    {
      api: { baseUrl: '/api', headers: { 'x-client-version': CLIENT_VERSION } },
      plan,
      package: pkg,
      workers: settings.number_of_upload_workers,
    },
    { http, joinBlob: (parts) => new Blob(parts), resumeStore, hasher, slabPacker },
  );
  const report = () => engineSent(settings, plan, requests);
  runners.set(path, { runner, report });
}

/** Rejects when the upload's progress has not moved for STALL_MS, naming what is in flight. */
function stallWatch(runner: UploadRunner) {
  let last = '';
  let since = performance.now();
  let timer = 0;
  const promise = new Promise<never>((_, reject) => {
    timer = window.setInterval(() => {
      const { progress, status } = runner.record;
      const now = `${status} ${progress.completedFiles} ${progress.completedBytes}`;
      if (now !== last) [last, since] = [now, performance.now()];
      if (performance.now() - since < STALL_MS) return;
      runner.cancel();
      const waiting = [...inFlight].slice(0, 5).join(', ') || 'nothing';
      const done = `${progress.completedFiles} of ${progress.totalFiles} files`;
      reject(
        new Error(
          `no progress for ${STALL_MS / 1000} s (${status}, ${done}; in flight: ${waiting})`,
        ),
      );
    }, 1000);
  });
  return { promise, stop: () => window.clearInterval(timer) };
}

/**
 * Runs the prepared upload; the time runs from the runner's start to COMPLETED: grants, bytes,
 * hashes, reports, finalise.
 */
async function runEngine(path: string): Promise<EngineRun> {
  const { runner, report } = runners.get(path)!;
  runners.delete(path);
  const started = performance.now();
  // Status changes (a retry, a failure) go to the bench's log; progress does not.
  let status = '';
  const stop = runner.subscribe((r) => {
    if (r.status === status) return;
    status = r.status;
    console.warn(`upload ${r.status}${r.error ? `: ${r.error}` : ''}`);
  });
  void runner.start();
  // A failed upload waits for the person's retry, a stalled one forever; the bench stops there.
  const stalled = stallWatch(runner);
  const record = await Promise.race([
    runner.when((r) => settled.includes(r.status)),
    stalled.promise,
  ]).finally(() => {
    stalled.stop();
    stop();
  });
  const seconds = (performance.now() - started) / 1000;
  if (record.status !== 'COMPLETED') {
    runner.cancel();
    const failed = record.failedFiles.length;
    throw new Error(`the upload ended ${record.status} (${failed} files failed): ${record.error}`);
  }
  return { seconds, files: record.progress.completedFiles, ...report() };
}

/**
 * Grants for the bare PUTs of the picked files, for a fresh package: one per slice of the one
 * file when `slices` is given, else one per file. Not measured.
 */
async function prepareBare(path: string, slices?: number) {
  const sources = picked.get(path)!;
  const files = {
    expected_files: sources.length,
    expected_size: sources.reduce((sum, s) => sum + s.size, 0),
    intended_files: sources.map((s) => ({ filename: s.path, size: s.size })),
  };
  const pkg = await createPackage(`Bare ${path}`, files);
  const objects =
    slices === undefined
      ? wholeFileObjects(sources)
      : sliceObjects(sources[0]!.path, sources[0]!.size, slices);
  grants.set(path, { objects, urlOf: await objectPutGrants(client, pkg.slug, objects) });
}

async function put(url: string, body: Blob) {
  const response = await fetch(url, { method: 'PUT', body });
  if (!response.ok) throw new Error(`PUT answered ${response.status}`);
}

/** The picked file PUT as the slices `prepareBare` granted, all at once: no engine at all. */
async function bareSlices(path: string) {
  const [source] = picked.get(path)!;
  const { objects, urlOf } = grants.get(path)!;
  const started = performance.now();
  let start = 0;
  await Promise.all(
    objects.map((o) => {
      const body = source!.slice(start, (start += o.size));
      return put(urlOf(o.name), body);
    }),
  );
  return { seconds: (performance.now() - started) / 1000, requests: { storage: objects.length } };
}

/** One PUT per picked file, `parallel` at once: no engine, no reports. */
async function barePerFile(path: string, parallel: number) {
  const sources = picked.get(path)!;
  const { objects, urlOf } = grants.get(path)!;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < sources.length) {
        const i = next++;
        await put(urlOf(objects[i]!.name), sources[i]!.slice(0, sources[i]!.size));
      }
    }),
  );
  return {
    seconds: (performance.now() - started) / 1000,
    files: sources.length,
    requests: { storage: sources.length },
  };
}

async function login(email: string, password: string) {
  await client.call(api.accounts.authenticate, { body: { email, password } });
}

/** Starts keeping a timeline of requests, hashes and ledger writes (see `timed`). */
function startTimeline() {
  timeline = [];
}

/** The timeline kept since `startTimeline`, in ms since the page's time origin; stops keeping it. */
function takeTimeline(): TimelineEvent[] {
  const events = timeline ?? [];
  timeline = null;
  return events;
}

const bench: UploadBenchPage = {
  login,
  startTimeline,
  takeTimeline,
  writeFiles,
  pick,
  pickInput,
  prepareEngine,
  runEngine,
  prepareBare,
  bareSlices,
  barePerFile,
};
declare global {
  interface Window {
    bench: UploadBenchPage;
  }
}

window.bench = bench;
