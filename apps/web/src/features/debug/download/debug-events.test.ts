import { describe, expect, it } from 'vitest';
import type { DownloadProgress } from '@filerunner/transfer';
import {
  EVENT_BUFFER_SIZE,
  EventRecorder,
  eventLogOf,
  parseEventLog,
  type EventRecord,
} from './debug-events';
import { applyRecords, CHART_POINTS, emptyView } from './download-view';

const progress = (receivedBytes: number, rate: number): DownloadProgress => ({
  totalBytes: 1000,
  receivedBytes,
  resumedBytes: 0,
  totalFiles: 2,
  completedFiles: receivedBytes === 1000 ? 2 : 0,
  rate,
  extractRate: rate / 2,
  estimated: null,
});

/** A recorder whose store is a list, with the writes it was given. */
function recorderWithList() {
  const writes: EventRecord[][] = [];
  let now = 1_000;
  const seen: EventRecord[] = [];
  const recorder = new EventRecorder(
    'run-1',
    { add: async (records) => void writes.push([...records]) },
    (record) => seen.push(record),
    () => (now += 10),
  );
  return { recorder, writes, seen };
}

describe('EventRecorder', () => {
  it('numbers records from 1 and writes them a thousand at a time', async () => {
    const { recorder, writes, seen } = recorderWithList();
    for (let i = 0; i < EVENT_BUFFER_SIZE + 5; i++) {
      recorder.record({ type: 'chunk-finished', at: i, chunk: i });
    }
    expect(seen.map((r) => r.eventCount)).toEqual(seen.map((_, i) => i + 1));
    // The thousandth record sent the buffer to the store; the five after it wait.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(writes.map((w) => w.length)).toEqual([EVENT_BUFFER_SIZE]);
    await recorder.flush();
    expect(writes.map((w) => w.length)).toEqual([EVENT_BUFFER_SIZE, 5]);
    expect(writes.flat().every((r) => r.downloadID === 'run-1')).toBe(true);
  });

  it('goes on recording when the store refuses, and says so', async () => {
    const recorder = new EventRecorder('run-2', {
      add: () => Promise.reject(new Error('QuotaExceededError')),
    });
    for (let i = 0; i < EVENT_BUFFER_SIZE + 1; i++) {
      recorder.record({ type: 'chunk-finished', at: i, chunk: i });
    }
    await recorder.flush();
    expect(recorder.eventCount).toBe(EVENT_BUFFER_SIZE + 1);
    expect((recorder.storeError as Error).message).toBe('QuotaExceededError');
  });
});

describe('the event log', () => {
  it('reads back what was saved, in order', () => {
    const { recorder, seen } = recorderWithList();
    recorder.record({ type: 'state', state: 'PREPARING' });
    recorder.record({ type: 'progress', progress: progress(500, 100), memory: null });
    const text = JSON.stringify(eventLogOf('run-1', [...seen].reverse()));
    const log = parseEventLog(text);
    expect(log.version).toBe(2);
    expect(log.records.map((r) => r.eventCount)).toEqual([1, 2]);
  });

  it('refuses a file that is not a log of this page, saying why', () => {
    expect(() => parseEventLog('nope')).toThrow('not an event log (it is not JSON)');
    expect(() => parseEventLog('{"records": []}')).toThrow('not an event log of the download');
    expect(() => parseEventLog(JSON.stringify({ ...eventLogOf('x', []), version: 1 }))).toThrow(
      'version 1; this page reads version 2',
    );
  });
});

describe('the download view', () => {
  it('goes PREPARING, DOWNLOADING and back to IDLE with the outcome, the same replayed', () => {
    const { recorder, seen } = recorderWithList();
    recorder.record({ type: 'state', state: 'PREPARING' });
    recorder.record({
      type: 'download-started',
      name: 'Reel',
      totalBytes: 1000,
      untar: true,
      asyncWrites: false,
    });
    recorder.record({ type: 'state', state: 'DOWNLOADING' });
    recorder.record({ type: 'file-state', index: 0, path: 'a', state: 'writing' });
    recorder.record({ type: 'file-state', index: 1, path: 'b', state: 'writing' });
    recorder.record({ type: 'progress', progress: progress(400, 800), memory: null });
    recorder.record({ type: 'file-state', index: 0, path: 'a', state: 'closed' });
    recorder.record({ type: 'file-state', index: 1, path: 'b', state: 'closed' });
    recorder.record({ type: 'progress', progress: progress(1000, 900), memory: null });
    recorder.record({
      type: 'download-finished',
      name: 'Reel',
      outcome: { verifiedFiles: 2, unverifiedFiles: [], failedFiles: [], fetchedBytes: 1000 },
    });
    recorder.record({ type: 'state', state: 'IDLE' });

    const halfway = applyRecords(emptyView, seen.slice(0, 6));
    expect(halfway.state).toBe('DOWNLOADING');
    expect(halfway.files.writing).toBe(2);

    const live = applyRecords(emptyView, seen);
    expect(live.state).toBe('IDLE');
    expect(live.files).toEqual({ pending: 0, writing: 0, closing: 0, closed: 2, error: 0 });
    expect(live.downloadRates.map((p) => p.rate)).toEqual([800, 900]);
    expect(live.extractRates.map((p) => p.rate)).toEqual([400, 450]);
    expect(live.finished).toHaveLength(1);
    expect(live.events).toBe(11);

    // Folded in other slices, as a replay does: the same view.
    let replayed = emptyView;
    const states = new Map();
    for (let i = 0; i < seen.length; i += 3) {
      replayed = applyRecords(replayed, seen.slice(i, i + 3), states);
    }
    expect(replayed).toEqual(live);
  });

  it('keeps the newest 500 points of each rate', () => {
    const { recorder, seen } = recorderWithList();
    for (let i = 1; i <= CHART_POINTS + 20; i++) {
      recorder.record({ type: 'progress', progress: progress(1, i), memory: null });
    }
    const view = applyRecords(emptyView, seen);
    expect(view.downloadRates).toHaveLength(CHART_POINTS);
    expect(view.downloadRates[0]!.rate).toBe(21);
    expect(view.downloadRates.at(-1)!.rate).toBe(CHART_POINTS + 20);
  });

  it('tells a failure with its cause, and an abort as such', () => {
    const { recorder, seen } = recorderWithList();
    recorder.record({ type: 'state', state: 'PREPARING' });
    recorder.record({ type: 'download-failed', message: 'reel.mov: answered HTTP 404' });
    recorder.record({ type: 'state', state: 'IDLE' });
    const failed = applyRecords(emptyView, seen);
    expect(failed).toMatchObject({ state: 'IDLE', error: 'reel.mov: answered HTTP 404' });
    recorder.record({ type: 'state', state: 'PREPARING' });
    recorder.record({ type: 'download-aborted' });
    recorder.record({ type: 'state', state: 'IDLE' });
    const aborted = applyRecords(emptyView, seen);
    expect(aborted).toMatchObject({ state: 'IDLE', error: null, aborted: true });
  });
});
