import type { UnknownAction } from '@reduxjs/toolkit';
import type { SenderPackage } from '@filerunner/protocol';
import {
  planUpload,
  sentFiles,
  UploadQueue,
  UploadRunner,
  type ApiTarget,
  type ByteSource,
  type UploadPlan,
  type UploadPorts,
  type UploadRecord,
} from '@filerunner/transfer';
import {
  matchRepickedFiles,
  reopenPickedFiles,
  repickProblems,
  requestReadPermission,
  type PickedHandle,
  type RepickMatch,
  type RepickProblem,
  type ResumableUpload,
} from '@filerunner/transfer/browser';
import { sessionLost } from '../auth/auth-slice';
import { uploadChanged, uploadRemoved } from './uploads-slice';

/**
 * Where each upload is kept for a resume after a reload (by package slug): the package, its
 * files' identities and the handles they were picked through.
 */
export interface ResumableUploadKeeper {
  put(upload: ResumableUpload): Promise<void>;
  delete(slug: string): Promise<void>;
  /** The owner's uploads, oldest first. */
  list(owner: number): Promise<ResumableUpload[]>;
}

/** What the controller runs uploads with: the API, the engine's ports, the resume keeper. */
export interface UploadPlatform {
  api: ApiTarget;
  ports: UploadPorts;
  resumable?: ResumableUploadKeeper;
}

/** A created package and what to fill it with. */
export interface UploadToStart {
  pkg: SenderPackage;
  /** The plan the package was created from (its intended files are the plan's). */
  plan: UploadPlan;
  /** The handles the files were picked through; empty for files from an `<input>`. */
  picked: readonly PickedHandle[];
  /** The hidden setting's upload workers when set, else the contract's. */
  workers: number;
}

export type UploadControl = 'pause' | 'resume' | 'cancel' | 'retry' | 'complete';

/** An upload a reload or a crash interrupted, as the panel offers it again. */
export interface InterruptedUpload {
  id: string;
  name: string;
  files: number;
  bytes: number;
  /** Whether the files are read again through kept handles (Resume asks for permission). */
  handles: boolean;
  /** Without handles, what the person picks again: the same folder, or the same files. */
  pickAgain: 'folder' | 'files';
}

/** How a resume of an interrupted upload went. */
export type ResumeOutcome =
  | { started: true }
  | { started: false; reason: 'permission' | 'unreadable' | 'gone' }
  | { started: false; reason: 'mismatch'; problems: RepickProblem[] };

type Dispatch = (action: UnknownAction) => unknown;

/**
 * Owns the transfer engine's runners, one per package, taking turns in a queue. It starts
 * them, passes the person's controls on, and dispatches every record a runner emits into the
 * uploads slice: the engine does the work, the store only shows it. It also keeps what an
 * upload needs to resume after a reload, and resumes it from there.
 */
export class UploadController {
  private readonly runners = new Map<string, { runner: UploadRunner; owner: number | null }>();
  /**
   * A queue per person: an upload the sign-out paused keeps its turn, and must not hold up the
   * next person to sign in on this page. Only the signed-in person's uploads ever send (the
   * others are paused until they are back), so the page still sends one upload at a time.
   */
  private readonly queues = new Map<number | null, UploadQueue>();
  /** Interrupted uploads found in the keeper, by slug, until resumed or discarded. */
  private readonly interruptedUploads = new Map<string, ResumableUpload>();
  /** Uploads kept out of the store while their owner is signed out. */
  private readonly hidden = new Set<string>();

  constructor(private readonly platform: UploadPlatform) {}

  /**
   * Queues the upload of a created package; answers its id (the package slug). `owner` (the
   * user's id) lets the upload be offered again to that person after a reload.
   */
  start(upload: UploadToStart, dispatch: Dispatch, owner: number | null = null): string {
    const { pkg, plan, workers } = upload;
    const resumable: ResumableUpload = {
      package: {
        slug: pkg.slug,
        name: pkg.name,
        contract: { slug: pkg.contract.slug },
        session_id: pkg.session_id,
      },
      owner: owner ?? -1,
      files: sentFiles(plan).map(({ path, size, lastModified }) => ({ path, size, lastModified })),
      useSlabFiles: plan.slabs.length > 0,
      workers,
      picked: [...upload.picked],
      startedAt: Date.now(),
    };
    // Kept before a byte moves, so that a reload at any point can resume from the same files.
    if (owner !== null) this.platform.resumable?.put(resumable).catch(keptNothing);
    return this.run(resumable, plan, dispatch, owner);
  }

  /** Passes a control on to the upload's runner; false when its status does not offer it. */
  control(id: string, control: UploadControl): boolean {
    const runner = this.runners.get(id)?.runner;
    return runner ? runner[control]() : false;
  }

  /** The upload's runner while it is this page's, for the panel's finer questions. */
  runner(id: string): UploadRunner | undefined {
    return this.runners.get(id)?.runner;
  }

  /**
   * The person's uploads that an earlier page started and did not finish (a reload, a closed
   * tab, a crash), oldest first; uploads running in this page are not among them.
   */
  async interrupted(owner: number): Promise<InterruptedUpload[]> {
    const kept = (await this.platform.resumable?.list(owner)) ?? [];
    const found: InterruptedUpload[] = [];
    for (const upload of kept) {
      const id = upload.package.slug;
      if (this.runners.has(id)) continue;
      this.interruptedUploads.set(id, upload);
      found.push({
        id,
        name: upload.package.name,
        files: upload.files.length,
        bytes: upload.files.reduce((total, file) => total + file.size, 0),
        handles: upload.picked.length > 0,
        // A folder pick gives paths with folders in them; single files give bare names.
        pickAgain: upload.files.some((file) => file.path.includes('/')) ? 'folder' : 'files',
      });
    }
    return found;
  }

  /**
   * Resumes an interrupted upload through its kept handles. Call it from the person's click:
   * the browser asks for read permission again only during one, so the question is the first
   * thing done. The engine's ledger then sends only what is not stored yet.
   */
  resumeWithHandles(id: string, dispatch: Dispatch): Promise<ResumeOutcome> {
    const upload = this.interruptedUploads.get(id);
    if (!upload) return Promise.resolve({ started: false, reason: 'gone' });
    const permission = requestReadPermission(upload.picked);
    return (async (): Promise<ResumeOutcome> => {
      if (!(await permission.catch(() => false))) return { started: false, reason: 'permission' };
      let match;
      try {
        match = await reopenPickedFiles(upload);
      } catch {
        // A picked file or folder that is gone or moved: the person picks the files again.
        return { started: false, reason: 'unreadable' };
      }
      return this.resumeWith(upload, match, dispatch);
    })();
  }

  /**
   * Resumes an interrupted upload with the files the person picked again (an `<input>` keeps
   * no handles), matched to the recorded ones by path, size and last-modified time.
   */
  resumeFromPick(id: string, picked: readonly ByteSource[], dispatch: Dispatch): ResumeOutcome {
    const upload = this.interruptedUploads.get(id);
    if (!upload) return { started: false, reason: 'gone' };
    return this.resumeWith(upload, matchRepickedFiles(upload.files, picked), dispatch);
  }

  /** Forgets an interrupted upload: its resume record and its ledger. */
  async discard(id: string): Promise<void> {
    this.interruptedUploads.delete(id);
    await Promise.all([
      this.platform.resumable?.delete(id),
      this.platform.ports.resumeStore?.delete(id),
    ]);
  }

  /**
   * Signed out on this page: every upload that is sending pauses for the session (its calls
   * could only be refused) and leaves the store, which is the signed-out page's, until its
   * owner signs in again.
   */
  pauseForSignOut(dispatch: Dispatch): void {
    for (const [id, { runner }] of this.runners) {
      this.hidden.add(id);
      runner.pause('session');
      dispatch(uploadRemoved(id));
    }
  }

  /** Signed in again: the person's own uploads come back, and those the session paused go on. */
  resumeAfterSignIn(owner: number, dispatch: Dispatch): void {
    for (const id of this.hidden) {
      const entry = this.runners.get(id);
      if (!entry || entry.owner !== owner) continue;
      this.hidden.delete(id);
      dispatch(uploadChanged(entry.runner.record));
    }
    this.resumeForSession(owner);
  }

  /**
   * The session ended elsewhere (another tab signed out) while this page stays: its uploads
   * pause for the session and stay in view, to go on when the person signs in again.
   */
  pauseForSession(): void {
    for (const [id, { runner }] of this.runners) if (!this.hidden.has(id)) runner.pause('session');
  }

  /** The person's session is back: their uploads the session paused go on. */
  resumeForSession(owner: number): void {
    for (const [id, { runner, owner: of }] of this.runners) {
      if (of !== owner || this.hidden.has(id) || runner.record.pausedFor !== 'session') continue;
      runner.resume();
    }
  }

  private resumeWith(
    upload: ResumableUpload,
    match: RepickMatch<ByteSource>,
    dispatch: Dispatch,
  ): ResumeOutcome {
    const id = upload.package.slug;
    if (!this.interruptedUploads.has(id)) return { started: false, reason: 'gone' };
    if (match.missing.length > 0 || match.changed.length > 0) {
      return { started: false, reason: 'mismatch', problems: repickProblems(match) };
    }
    this.interruptedUploads.delete(id);
    // The same files and option plan the same objects, so the ledger lines up with the plan.
    const plan = planUpload(match.matched, { useSlabFiles: upload.useSlabFiles });
    this.run(upload, plan, dispatch, upload.owner);
    return { started: true };
  }

  private run(
    upload: ResumableUpload,
    plan: UploadPlan,
    dispatch: Dispatch,
    owner: number | null,
  ): string {
    const { package: pkg, workers } = upload;
    const runner = new UploadRunner(
      {
        api: this.platform.api,
        plan,
        package: pkg,
        workers,
        queue: this.queueOf(owner),
        pauseWhenSignedOut: true,
      },
      this.platform.ports,
    );
    this.runners.set(pkg.slug, { runner, owner });
    let paused = false;
    const stop = runner.subscribe((record) => {
      if (this.hidden.has(record.id)) return;
      dispatch(uploadChanged(record));
      // The engine paused by itself because a call was refused: the page learns the session is
      // gone (a pause this page made for the session tells it nothing new).
      const pausedNow = record.status === 'PAUSED';
      if (pausedNow && !paused && record.pausedFor === 'session') dispatch(sessionLost());
      paused = pausedNow;
    });
    runner.start().then(
      (record) => {
        stop();
        this.finished(record, dispatch);
      },
      (error: unknown) => {
        stop();
        this.runners.delete(pkg.slug);
        console.error('upload stopped', pkg.slug, error);
      },
    );
    return pkg.slug;
  }

  private queueOf(owner: number | null): UploadQueue {
    let queue = this.queues.get(owner);
    if (!queue) this.queues.set(owner, (queue = new UploadQueue()));
    return queue;
  }

  private finished(record: UploadRecord, dispatch: Dispatch) {
    this.runners.delete(record.id);
    this.hidden.delete(record.id);
    // A sent or cancelled upload will never be resumed.
    this.platform.resumable?.delete(record.id).catch(keptNothing);
    if (record.cancelled) dispatch(uploadRemoved(record.id));
  }
}

function keptNothing(error: unknown) {
  // Without its record an interrupted upload cannot be offered again; the upload goes on.
  console.warn('could not keep the upload for a resume', error);
}
