import type { DownloadErrorKind } from './ports';

/**
 * What happened during a download, in order, each stamped with the clock's time: what a debug
 * page records and replays. Chunks are named by their number and tar range; files by their
 * index among the targets and their path. Never a URL (the grant's signature is in it).
 */
export type DownloadEvent =
  | {
      readonly type: 'chunk-started';
      readonly at: number;
      readonly chunk: number;
      /** The range asked for, [from, end) in the object's bytes. */
      readonly from: number;
      readonly end: number;
      readonly attempt: number;
    }
  | { readonly type: 'chunk-finished'; readonly at: number; readonly chunk: number }
  | {
      readonly type: 'chunk-retried';
      readonly at: number;
      readonly chunk: number;
      /** Failures of this chunk so far. */
      readonly failures: number;
      /** Where the next attempt starts: after the bytes already written. */
      readonly from: number;
      readonly reason: string;
    }
  | {
      readonly type: 'chunk-stalled';
      readonly at: number;
      readonly chunk: number;
      /** No byte for STALL_TIMEOUT_MS, or not done within the worker timeout. */
      readonly why: 'no-progress' | 'worker-timeout';
    }
  | {
      readonly type: 'file-closed';
      readonly at: number;
      readonly index: number;
      readonly path: string;
    }
  | {
      readonly type: 'file-verified';
      readonly at: number;
      readonly index: number;
      readonly path: string;
      /** False when the sender recorded no hash: written, not checked. */
      readonly checked: boolean;
    }
  | {
      readonly type: 'file-failed';
      readonly at: number;
      readonly index: number;
      readonly path: string;
      readonly kind: DownloadErrorKind;
      readonly message: string;
    }
  | {
      readonly type: 'rate';
      readonly at: number;
      readonly rate: number;
      readonly extractRate: number;
    }
  | {
      readonly type: 'concurrency';
      readonly at: number;
      readonly from: number;
      readonly to: number;
      readonly why: 'rate-grows' | 'error';
    };
