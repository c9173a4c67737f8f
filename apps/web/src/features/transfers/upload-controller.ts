import type { UnknownAction } from '@reduxjs/toolkit';
import type { SenderPackage } from '@filerunner/protocol';
import {
  UploadQueue,
  UploadRunner,
  type ApiTarget,
  type UploadPlan,
  type UploadPorts,
  type UploadRecord,
} from '@filerunner/transfer';
import type { PickedHandle } from '@filerunner/transfer/browser';
import { uploadChanged, uploadRemoved } from './uploads-slice';

/** Where each upload's picked handles are kept for a resume after a reload (by package slug). */
export interface PickedHandleKeeper {
  put(key: string, picked: readonly PickedHandle[]): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What the controller runs uploads with: the API, the engine's ports, the handle store. */
export interface UploadPlatform {
  api: ApiTarget;
  ports: UploadPorts;
  handles?: PickedHandleKeeper;
}

/** A created package and what to fill it with. */
export interface UploadToStart {
  pkg: SenderPackage;
  /** The plan the package was created from (its intended files are the plan's). */
  plan: UploadPlan;
  /** The handles the files were picked through; empty for files from an `<input>`. */
  picked: readonly PickedHandle[];
  /** The contract's `number_of_upload_workers`. */
  workers: number;
}

export type UploadControl = 'pause' | 'resume' | 'cancel' | 'retry' | 'complete';

type Dispatch = (action: UnknownAction) => unknown;

/**
 * Owns the transfer engine's runners, one per package, taking turns in one queue. It starts
 * them, passes the person's controls on, and dispatches every record a runner emits into the
 * uploads slice: the engine does the work, the store only shows it.
 */
export class UploadController {
  private readonly runners = new Map<string, UploadRunner>();
  private readonly queue = new UploadQueue();

  constructor(private readonly platform: UploadPlatform) {}

  /** Queues the upload of a created package; answers its id (the package slug). */
  start(upload: UploadToStart, dispatch: Dispatch): string {
    const { pkg, plan, workers } = upload;
    const runner = new UploadRunner(
      {
        api: this.platform.api,
        plan,
        package: {
          slug: pkg.slug,
          name: pkg.name,
          contract: { slug: pkg.contract.slug },
          session_id: pkg.session_id,
        },
        workers,
        queue: this.queue,
      },
      this.platform.ports,
    );
    this.runners.set(pkg.slug, runner);
    // Kept before a byte moves, so that a reload at any point can resume from the same files.
    if (upload.picked.length > 0) {
      this.platform.handles?.put(pkg.slug, upload.picked).catch(keptNothing);
    }
    const stop = runner.subscribe((record) => dispatch(uploadChanged(record)));
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

  /** Passes a control on to the upload's runner; false when its status does not offer it. */
  control(id: string, control: UploadControl): boolean {
    const runner = this.runners.get(id);
    return runner ? runner[control]() : false;
  }

  /** The upload's runner while it is this page's, for the panel's finer questions. */
  runner(id: string): UploadRunner | undefined {
    return this.runners.get(id);
  }

  private finished(record: UploadRecord, dispatch: Dispatch) {
    this.runners.delete(record.id);
    // A sent or cancelled upload will never be resumed.
    this.platform.handles?.delete(record.id).catch(keptNothing);
    if (record.cancelled) dispatch(uploadRemoved(record.id));
  }
}

function keptNothing(error: unknown) {
  // Without its handles an interrupted upload asks for the files again; the upload goes on.
  console.warn('could not keep the picked files for a resume', error);
}
