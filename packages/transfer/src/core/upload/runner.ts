import { ApiError } from '@filerunner/protocol';
import { systemClock, type Clock } from '../ports';
import { AbortPolicy, defaultAbortThresholds } from './abort-policy';
import {
  actionsOf,
  type PauseReason,
  type UploadActions,
  type UploadListener,
  type UploadRecord,
} from './events';
import { cutLandingRequests, runJob, SessionEnded, type SendContext } from './job-sender';
import { intendedFilesOf, jobsOf, type Job } from './jobs';
import { PackageApi, type CreatePackageFields } from './package-api';
import { UploadTracker } from './progress';
import {
  DEFAULT_UPLOAD_WORKERS,
  openUpload,
  type UploadOptions,
  type UploadPackage,
  type UploadPorts,
} from './upload-context';

export {
  DEFAULT_UPLOAD_WORKERS,
  type UploadOptions,
  type UploadPackage,
  type UploadPorts,
} from './upload-context';

/**
 * Jobs under way per worker. A worker is one storage request on its way; a job also hashes,
 * waits for the ledger and for its report, and meanwhile other jobs keep the requests going.
 */
const JOBS_PER_WORKER = 4;

/**
 * How long an upload paused by a full storage waits before it tries again, one delay after the
 * other and then the last for as long as it takes: soon after an operator frees space, without
 * sending a refused request every few seconds through a long night. Each try sends only what is
 * not stored yet, and storage refuses it before reading the body while it is still full.
 */
export const STORAGE_FULL_PROBE_DELAYS_MS: readonly number[] = [
  5_000, 10_000, 20_000, 30_000, 60_000,
];

// The engine's words for how an upload ended, shown in the panel's banners.
const messages = {
  aborted: 'Uploads failed to complete',
  someFailed: 'We failed to upload some of your files',
  completeFailed: 'Uploads failed to complete',
} as const;

type Intent = 'resume' | 'retry' | 'complete' | 'cancel';

/**
 * Sends one package: creates it if asked, gets grants, sends the plan's batches, slabs and
 * segments with a pool of workers, reports each, and finalises. The person's controls (pause,
 * resume, cancel, retry, complete) act on it while it runs; `subscribe` shows every change.
 */
export class UploadRunner {
  readonly done: Promise<UploadRecord>;
  private started = false;
  private startRun!: () => void;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly tracker: UploadTracker;
  private readonly policy: AbortPolicy;
  private readonly api: PackageApi;
  private readonly jobs: Job[];
  private readonly finished = new Set<Job>();
  private pkg: UploadPackage | null;
  private ctx: SendContext | null = null;
  private session: AbortController | null = null;
  private intent: Intent | null = null;
  private wake: (() => void) | null = null;
  private releaseTurn: (() => void) | null = null;
  /** Aborted by Cancel, so a cancel also ends the wait for the queue. */
  private readonly cancelling = new AbortController();
  private missingOnFinalise: string[] = [];
  /** Whether the last finalise left out failed files, so a retry of it does too. */
  private forced = false;
  /** Tries made since storage was last found full, for the delay before the next. */
  private storageProbes = 0;

  constructor(
    private readonly options: UploadOptions,
    private readonly ports: UploadPorts,
  ) {
    this.clock = ports.clock ?? systemClock;
    this.random = ports.random ?? Math.random;
    this.pkg = 'create' in options.package ? null : options.package;
    this.jobs = jobsOf(options.plan);
    this.policy = new AbortPolicy(() => this.clock.now(), {
      ...defaultAbortThresholds,
      ...options.abortThresholds,
    });
    this.api = new PackageApi(
      ports.http,
      options.api,
      this.clock,
      (s) => this.observeApi(s),
      this.random,
    );
    this.tracker = new UploadTracker(() => this.clock.now(), {
      id: this.pkg?.slug ?? `upload-${Math.floor(this.random() * 2 ** 48).toString(36)}`,
      name:
        this.pkg?.name ??
        String(('create' in options.package && options.package.create.name) || ''),
      totalFiles: options.plan.totalFiles,
      totalBytes: options.plan.totalBytes,
    });
    const begun = new Promise<void>((resolve) => (this.startRun = resolve));
    this.done = begun.then(() => this.run());
    // Until someone starts it, nobody awaits it; a kill before the start must not go unhandled.
    this.done.catch(() => undefined);
  }

  /** Starts the upload (waiting for its turn in the queue); answers `done`. */
  start(): Promise<UploadRecord> {
    if (!this.started) {
      this.started = true;
      this.startRun();
    }
    return this.done;
  }

  get record(): UploadRecord {
    return this.tracker.current;
  }

  get actions(): UploadActions {
    return actionsOf(this.record);
  }

  /** The package being filled, once it exists. */
  get package(): UploadPackage | null {
    return this.pkg;
  }

  /** Calls `listener` with the current record now and with every new one. */
  subscribe(listener: UploadListener): () => void {
    return this.tracker.subscribe(listener);
  }

  /** The first record (now or later) that `test` accepts; rejects if the upload ends first. */
  when(test: (record: UploadRecord) => boolean): Promise<UploadRecord> {
    return new Promise((resolve, reject) => {
      let stop = () => {};
      stop = this.subscribe((record) => {
        if (!test(record)) return;
        void Promise.resolve().then(() => stop());
        resolve(record);
      });
      this.done.then(
        (record) => {
          stop();
          if (test(record)) resolve(record);
          else reject(new Error('the upload ended'));
        },
        (error: unknown) => {
          stop();
          reject(error);
        },
      );
    });
  }

  /**
   * Stops sending until `resume`. Paused for the session, the storage requests under way still
   * land (storage needs no session, and a request cut off would be sent again); what they
   * stored is reported after the resume.
   */
  pause(reason: PauseReason = 'person'): boolean {
    if (!this.actions.pause) return false;
    this.tracker.move('PAUSED', this.record.error, reason);
    this.session?.abort(reason === 'session' ? new SessionEnded() : new Error('paused'));
    return true;
  }

  /**
   * Storage answered 507: the session stops and the upload waits, PAUSED for `storage_full`,
   * then tries again by itself (see STORAGE_FULL_PROBE_DELAYS_MS) or when the person resumes.
   * Files are not failed: once space returns they go as they would have.
   */
  private storageFull() {
    if (!this.actions.pause || !this.session) return;
    this.tracker.move('PAUSED', this.record.error, 'storage_full');
    this.session.abort(new Error('storage is full'));
  }

  resume(): boolean {
    if (!this.actions.resume) return false;
    this.stopSession(new Error('resumed'));
    return this.tell('resume');
  }

  /** Stops for good and forgets the ledger; the package is never sent. */
  cancel(): boolean {
    if (!this.actions.cancel) return false;
    this.intent = 'cancel';
    this.cancelling.abort();
    this.stopSession(new Error('cancelled'));
    this.wake?.();
    void this.start();
    return true;
  }

  /** FAILED: sends the failed files again. INCOMPLETE: finalises again. */
  retry(): boolean {
    return this.actions.retry && this.tell('retry');
  }

  /** Sends the package without the files that failed (only after a failure, when some arrived). */
  complete(): boolean {
    return this.actions.complete && this.tell('complete');
  }

  /** Stops the send under way, if any, with the storage requests a session's end let land. */
  private stopSession(reason: unknown) {
    if (!this.session) return;
    this.session.abort(reason);
    cutLandingRequests(this.session.signal, reason);
  }

  private tell(intent: Intent): true {
    this.intent = intent;
    this.wake?.();
    return true;
  }

  private async run(): Promise<UploadRecord> {
    const kill = this.options.signal;
    const onKill = () => this.stopSession(kill?.reason);
    kill?.addEventListener('abort', onKill, { once: true });
    try {
      await this.takeTurn();
      if (this.intent !== 'cancel') this.tracker.move('UPLOADING');
      for (;;) {
        kill?.throwIfAborted();
        if (this.intent === 'cancel') return await this.cancelled();
        const { status } = this.record;
        if (status === 'UPLOADING' || status === 'RETRYING') await this.sendSession();
        else if (status === 'UPLOADED') await this.finalise(false);
        else if (status === 'COMPLETED' || status === 'FORCE_COMPLETED') return this.record;
        else await this.waitForPerson();
      }
    } finally {
      kill?.removeEventListener('abort', onKill);
      // Whatever happened, the ledger on record is complete when `done` settles.
      await this.ctx?.ledger.idle();
      this.releaseTurn?.();
    }
  }

  private async takeTurn() {
    if (this.releaseTurn || !this.options.queue) return;
    const turn = this.options.queue.turn();
    const stopped = new Promise<null>((resolve) => {
      for (const signal of [this.cancelling.signal, this.options.signal]) {
        if (signal?.aborted) resolve(null);
        signal?.addEventListener('abort', () => resolve(null), { once: true });
      }
    });
    const release = await Promise.race([turn, stopped]);
    // Cancelled or killed while waiting: the turn is passed on as soon as it comes.
    if (release === null) void turn.then((giveBack) => giveBack());
    else this.releaseTurn = release;
  }

  private giveTurnBack() {
    this.releaseTurn?.();
    this.releaseTurn = null;
  }

  /** PAUSED, FAILED or INCOMPLETE: waits for the person's next step and takes it. */
  private async waitForPerson() {
    const { status } = this.record;
    if (status !== 'PAUSED') this.giveTurnBack();
    if (
      status === 'FAILED' &&
      this.options.autoComplete &&
      this.record.progress.completedFiles > 0 &&
      this.intent === null
    ) {
      this.intent = 'complete';
    }
    const probe = this.record.pausedFor === 'storage_full' ? this.probeStorageLater() : null;
    while (this.intent === null) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.options.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      this.options.signal?.throwIfAborted();
    }
    probe?.abort();
    const intent = this.intent;
    this.intent = intent === 'cancel' ? intent : null;
    if (intent === 'cancel') return;
    if (intent === 'complete') return this.finalise(true);
    if (status === 'INCOMPLETE' && this.missingOnFinalise.length === 0) {
      return this.finalise(this.forced);
    }
    await this.takeTurn();
    if (status === 'INCOMPLETE') this.reopen(this.missingOnFinalise);
    if (status === 'FAILED') {
      this.tracker.clearFailed();
      this.policy.reset();
    }
    // The refusals of a full storage say nothing about the requests to come.
    if (this.record.pausedFor === 'storage_full') this.policy.reset();
    else this.storageProbes = 0;
    this.tracker.move('UPLOADING', null);
  }

  /** Resumes the upload after the next probe delay, unless aborted first; answers the abort. */
  private probeStorageLater(): AbortController {
    const stop = new AbortController();
    const delays = STORAGE_FULL_PROBE_DELAYS_MS;
    const delay = delays[Math.min(this.storageProbes, delays.length - 1)]!;
    this.storageProbes++;
    this.clock.sleep(delay, stop.signal).then(
      () => {
        if (this.intent === null) this.tell('resume');
      },
      () => undefined,
    );
    return stop;
  }

  /**
   * Sends every job not yet finished, a few jobs per worker at once (their storage requests
   * take turns for the workers); ends when they are done or stopped.
   */
  private async sendSession() {
    const session = new AbortController();
    this.session = session;
    if (this.options.signal?.aborted) session.abort(this.options.signal.reason);
    let stopped: boolean;
    try {
      const ctx = await this.context(session.signal);
      // Grants are asked for now, while the first jobs read their files, rather than when the
      // first request is about to go; a failure here is asked again by that request.
      void ctx.grants.current(session.signal).catch(() => undefined);
      const pending = this.jobs.filter((job) => !this.finished.has(job));
      let next = 0;
      const takeJobs = async () => {
        while (!session.signal.aborted && next < pending.length) {
          const job = pending[next++]!;
          if (await runJob(ctx, job, session.signal)) this.finished.add(job);
        }
      };
      const results = await Promise.allSettled(
        Array.from({ length: this.workers * JOBS_PER_WORKER }, takeJobs),
      );
      stopped = session.signal.aborted;
      const failure = results.find((r) => r.status === 'rejected');
      if (failure && !stopped) throw failure.reason;
    } catch (error) {
      stopped = session.signal.aborted;
      if (!stopped) return this.fail(errorMessage(error, messages.aborted));
    } finally {
      this.session = null;
    }
    this.options.signal?.throwIfAborted();
    if (this.intent === 'cancel' || this.record.status === 'PAUSED') return;
    if (stopped) {
      // The abort policy stopped it: every file not yet sent failed.
      for (const job of this.jobs) {
        if (!this.finished.has(job)) for (const file of job.files) this.tracker.fileFailed(file);
      }
      return this.fail(messages.aborted);
    }
    this.tracker.flush();
    if (this.tracker.failedSources.length > 0) return this.fail(messages.someFailed);
    this.tracker.move('UPLOADED', null);
  }

  private fail(message: string) {
    this.tracker.move('FAILED', message);
  }

  /** Creates the package if needed, loads the ledger, and builds what workers share (once). */
  private async context(signal: AbortSignal): Promise<SendContext> {
    if (this.ctx) return this.ctx;
    if (!this.pkg) {
      const fields = (this.options.package as { create: CreatePackageFields }).create;
      this.pkg = await this.api.create(
        { ...fields, ...intendedFilesOf(this.options.plan) },
        signal,
      );
    }
    this.ctx = await openUpload(this.pkg, this.options.plan, {
      ports: this.ports,
      clock: this.clock,
      random: this.random,
      api: this.api,
      tracker: this.tracker,
      observe: (status) => this.observe(status),
      storageFull: () => this.storageFull(),
      workers: this.workers,
    });
    return this.ctx;
  }

  /** Storage requests on their way at once. */
  private get workers(): number {
    return Math.max(1, this.options.workers ?? DEFAULT_UPLOAD_WORKERS);
  }

  /**
   * The API's answers. A 401 says the session ended (signed out, here or in another tab): no
   * retry mends it and it is no fault of the upload, so the upload pauses for it, when asked to,
   * rather than counting it against the upload.
   */
  private observeApi(status: number) {
    if (status === 401 && this.options.pauseWhenSignedOut) this.pause('session');
    else this.observe(status);
  }

  /** Every answer goes to the abort policy; when it says stop, the session stops. */
  private observe(status: number) {
    this.policy.observe(status);
    if (this.session && this.policy.check() !== null) {
      this.session.abort(new Error('too many errors'));
    }
  }

  private async finalise(force: boolean) {
    this.forced = force;
    this.tracker.move('COMPLETING', null);
    const pkg = this.pkg!;
    try {
      const sent = await this.api.finalise(pkg, force, this.options.signal);
      await this.ctx?.ledger.change((l) => {
        l.finalised = true;
      });
      await this.ctx?.ledger.remove();
      this.missingOnFinalise = [];
      this.tracker.move(sent.status === 'force_completed' ? 'FORCE_COMPLETED' : 'COMPLETED', null);
    } catch (error) {
      this.options.signal?.throwIfAborted();
      if (this.options.pauseWhenSignedOut && error instanceof ApiError && error.status === 401) {
        // Nothing was sent: the finalise is made again once the upload resumes.
        this.tracker.move('PAUSED', null, 'session');
        return;
      }
      const body = error instanceof ApiError ? (error.body as Record<string, unknown>) : null;
      const missing = body?.missing_files;
      this.missingOnFinalise = Array.isArray(missing) ? missing.map(String) : [];
      this.tracker.move('INCOMPLETE', errorMessage(error, messages.completeFailed));
    }
  }

  /** Files the server did not find when finalising: their jobs are sent (or reported) again. */
  private reopen(paths: readonly string[]) {
    const missing = new Set(paths);
    const ledger = this.ctx!.ledger.ledger;
    for (const job of this.jobs) {
      if (!job.files.some((file) => missing.has(file.path))) continue;
      this.finished.delete(job);
      if (job.kind === 'batch') delete ledger.batches[job.batch.batch_name];
      if (job.kind === 'slab') delete ledger.slabs[job.slab.name];
      if (job.kind === 'segment') delete ledger.largeFiles[job.large.source.path];
    }
    this.ctx?.confirmed.clear();
    this.tracker.reopen(paths);
    this.missingOnFinalise = [];
  }

  private async cancelled(): Promise<UploadRecord> {
    this.session?.abort(new Error('cancelled'));
    await this.ctx?.ledger.remove().catch(() => undefined);
    this.tracker.cancel();
    return this.record;
  }
}

function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status > 0 && error.status < 500) {
    return error.detail ?? fallback;
  }
  return fallback;
}
