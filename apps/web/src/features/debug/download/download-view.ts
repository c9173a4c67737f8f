import type { DownloadOutcome, DownloadProgress } from '@filerunner/transfer';
import type { ExtractFileState } from '@filerunner/transfer/browser';
import type { DebugDownloadState, EventRecord, MemoryFigures } from './debug-events';

/** The charts keep this many of the newest points. */
export const CHART_POINTS = 500;

/** One point of a rate chart: seconds since the run started, bytes per second. */
export interface RatePoint {
  readonly t: number;
  readonly rate: number;
}

/** How the page's figures stand: built from the records alone, live or replayed alike. */
export interface DownloadView {
  readonly state: DebugDownloadState;
  /** The download running or last run (package or file name). */
  readonly name: string | null;
  readonly progress: DownloadProgress | null;
  readonly memory: MemoryFigures | null;
  readonly downloadRates: readonly RatePoint[];
  readonly extractRates: readonly RatePoint[];
  /** Unpacked files by their state (Untar only). */
  readonly files: Readonly<Record<ExtractFileState, number>>;
  readonly chunks: {
    readonly started: number;
    readonly finished: number;
    readonly retried: number;
  };
  /** Downloads of the run that ended, with their outcome. */
  readonly finished: readonly { readonly name: string; readonly outcome: DownloadOutcome }[];
  /** The cause of the failure that ended the run. */
  readonly error: string | null;
  /** The person aborted the run. */
  readonly aborted: boolean;
  readonly events: number;
  /** When the run's first record was made, for the charts' time axis. */
  readonly startedAt: number | null;
}

export const emptyView: DownloadView = {
  state: 'IDLE',
  name: null,
  progress: null,
  memory: null,
  downloadRates: [],
  extractRates: [],
  files: { pending: 0, writing: 0, closing: 0, closed: 0, error: 0 },
  chunks: { started: 0, finished: 0, retried: 0 },
  finished: [],
  error: null,
  aborted: false,
  events: 0,
  startedAt: null,
};

function pushPoint(points: readonly RatePoint[], point: RatePoint): RatePoint[] {
  const next =
    points.length >= CHART_POINTS ? points.slice(points.length - CHART_POINTS + 1) : [...points];
  next.push(point);
  return next;
}

/**
 * The view after `records`, folded in order onto `view`. File states are counted from each
 * file's last state (a file goes pending, writing, closing, closed), so the counts are those of
 * the files, not of the transitions.
 */
export function applyRecords(
  view: DownloadView,
  records: readonly EventRecord[],
  fileStates: Map<number, ExtractFileState> = new Map(),
): DownloadView {
  let next = view;
  for (const record of records) next = applyRecord(next, record, fileStates);
  return next;
}

function applyRecord(
  view: DownloadView,
  record: EventRecord,
  fileStates: Map<number, ExtractFileState>,
): DownloadView {
  const startedAt = view.startedAt ?? record.at;
  const base = { ...view, events: record.eventCount, startedAt };
  const { event } = record;
  switch (event.type) {
    case 'state':
      return {
        ...base,
        state: event.state,
        ...(event.state === 'PREPARING' ? { error: null, aborted: false, finished: [] } : {}),
      };
    case 'download-started':
      fileStates.clear();
      return {
        ...base,
        name: event.name,
        progress: null,
        files: emptyView.files,
        chunks: emptyView.chunks,
      };
    case 'progress': {
      const t = (record.at - startedAt) / 1000;
      return {
        ...base,
        progress: event.progress,
        memory: event.memory ?? base.memory,
        downloadRates: pushPoint(base.downloadRates, { t, rate: event.progress.rate }),
        extractRates: pushPoint(base.extractRates, { t, rate: event.progress.extractRate }),
      };
    }
    case 'file-state': {
      fileStates.set(event.index, event.state);
      const files = { pending: 0, writing: 0, closing: 0, closed: 0, error: 0 };
      for (const state of fileStates.values()) files[state]++;
      return { ...base, files };
    }
    case 'chunk-started':
      return { ...base, chunks: { ...base.chunks, started: base.chunks.started + 1 } };
    case 'chunk-finished':
      return { ...base, chunks: { ...base.chunks, finished: base.chunks.finished + 1 } };
    case 'chunk-retried':
      return { ...base, chunks: { ...base.chunks, retried: base.chunks.retried + 1 } };
    case 'download-finished':
      return {
        ...base,
        finished: [...base.finished, { name: event.name, outcome: event.outcome }],
      };
    case 'download-failed':
      return { ...base, error: event.message };
    case 'download-aborted':
      return { ...base, aborted: true };
    default:
      return base;
  }
}
