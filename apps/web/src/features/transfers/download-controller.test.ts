import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import {
  DownloadController,
  interruptedMessage,
  type DownloadRequest,
} from './download-controller';
import type { DownloadKeeper, GrantSource, KeptDownload } from './kept-downloads';
import type {
  DownloadDescriptor,
  DownloadJob,
  DownloadOutcome,
  DownloadRunner,
  ReceiptCalls,
} from './download-runner';
import { downloadsReducer, selectDownloads } from './downloads-slice';

/** A runner whose downloads end when the test says, recording each job it was given. */
function scriptedRunner() {
  const jobs: {
    job: DownloadJob;
    finish: (o?: Partial<DownloadOutcome>) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const runner: DownloadRunner = (job) =>
    new Promise((resolve, reject) => {
      jobs.push({
        job,
        finish: (outcome = {}) =>
          resolve({
            verifiedFiles: 0,
            unverifiedFiles: [],
            failedFiles: [],
            fetchedBytes: 0,
            ...outcome,
          }),
        fail: reject,
      });
    });
  return { runner, jobs };
}

const tarOf = (...paths: string[]): DownloadDescriptor => ({
  downloadUrl: 'https://files.example/secret-grant',
  filename: 'reel.tar',
  size: 3000,
  tar: { mtime: 1, files: paths.map((path) => ({ path, size: 1000, xxh128: null })) },
});

const folder = { name: 'Dailies', handle: {} };

function queueWith(options: { folders?: boolean } = {}) {
  const browser = scriptedRunner();
  const engine = scriptedRunner();
  const controller = new DownloadController({
    browser: browser.runner,
    ...(options.folders && { folder: engine.runner, pickFolder: async () => folder }),
    options: () => ({ concurrentChunks: 4 }),
  });
  const store = configureStore({ reducer: { downloads: downloadsReducer } });
  controller.attach(store);
  const grants: string[] = [];
  const request = (name: string, changes: Partial<DownloadRequest> = {}): DownloadRequest => ({
    receivedPackage: name,
    packageSlug: name.toLowerCase(),
    packageFile: null,
    method: 'browser',
    unpackOption: 'yes',
    invalidFilenames: false,
    grant: async () => {
      grants.push(name);
      return tarOf('a', 'b', 'c');
    },
    ...changes,
  });
  const shown = () =>
    selectDownloads(store.getState()).map((d) => [d.receivedPackage, d.status, d.retryCount]);
  return { controller, store, browser, engine, request, grants, shown };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the download queue', () => {
  it('runs one download at a time, the next 500 ms after the previous ends', async () => {
    const { controller, browser, request, grants, shown } = queueWith();
    controller.enqueue(request('A'));
    controller.enqueue(request('B'));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown()).toEqual([
      ['A', 'DOWNLOADING', 0],
      ['B', 'QUEUED', 0],
    ]);
    expect(grants).toEqual(['A']);

    browser.jobs[0]!.finish();
    await vi.advanceTimersByTimeAsync(499);
    expect(shown()).toEqual([
      ['A', 'COMPLETED', 0],
      ['B', 'QUEUED', 0],
    ]);
    // B's grant is asked only when it starts.
    expect(grants).toEqual(['A']);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown()[1]).toEqual(['B', 'DOWNLOADING', 0]);
    expect(grants).toEqual(['A', 'B']);
    expect(browser.jobs).toHaveLength(2);
  });

  it('passes the grant, the folder and the hidden settings to the engine, and its progress on', async () => {
    const { controller, store, engine, request } = queueWith({ folders: true });
    const { id } = controller.enqueue(request('A', { method: 'unpack', folder }));
    await vi.advanceTimersByTimeAsync(0);
    const { job } = engine.jobs[0]!;
    expect(job.method).toBe('unpack');
    expect(job.folder).toBe(folder);
    expect(job.options).toEqual({ concurrentChunks: 4 });
    expect(job.descriptor.filename).toBe('reel.tar');
    const progress = {
      totalBytes: 3000,
      receivedBytes: 1500,
      resumedBytes: 0,
      totalFiles: 3,
      completedFiles: 1,
      rate: 10,
      extractRate: 10,
      estimated: 150,
    };
    job.onProgress(progress);
    let record = store.getState().downloads.records[id]!;
    expect([record.status, record.percentComplete, record.rootFolder]).toEqual([
      'DOWNLOADING',
      50,
      'Dailies',
    ]);
    // Progress never moves backward.
    await vi.advanceTimersByTimeAsync(250);
    job.onProgress({ ...progress, receivedBytes: 900 });
    expect(store.getState().downloads.records[id]!.percentComplete).toBe(50);
    // Tells closer together are painted once per 250 ms, the last of them at the end of it.
    await vi.advanceTimersByTimeAsync(250);
    job.onProgress({ ...progress, receivedBytes: 1800 });
    job.onProgress({ ...progress, receivedBytes: 2100 });
    expect(store.getState().downloads.records[id]!.percentComplete).toBe(60);
    job.onProgress({ ...progress, receivedBytes: 2400 });
    await vi.advanceTimersByTimeAsync(249);
    expect(store.getState().downloads.records[id]!.percentComplete).toBe(60);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().downloads.records[id]!.percentComplete).toBe(80);
    // The grant's URL, the credential, never reaches the store.
    expect(JSON.stringify(store.getState())).not.toContain('secret-grant');
    engine.jobs[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    record = store.getState().downloads.records[id]!;
    expect([record.status, record.percentComplete]).toEqual(['COMPLETED', 100]);
  });

  it('marks a download Partially Failed with the files that did not arrive, Failed when none did', async () => {
    const { controller, store, engine, request } = queueWith({ folders: true });
    const some = controller.enqueue(request('A', { method: 'unpack', folder }));
    const all = controller.enqueue(request('B', { method: 'unpack', folder }));
    await vi.advanceTimersByTimeAsync(0);
    const failed = { path: 'b', kind: 'write' as const, message: 'cannot write b' };
    engine.jobs[0]!.finish({ failedFiles: [failed] });
    await vi.advanceTimersByTimeAsync(500);
    engine.jobs[1]!.finish({
      failedFiles: ['a', 'b', 'c'].map((path) => ({
        path,
        kind: 'name' as const,
        message: 'bad name',
      })),
    });
    await vi.advanceTimersByTimeAsync(0);
    const records = store.getState().downloads.records;
    expect(records[some.id]).toMatchObject({
      status: 'PARTIALLY_FAILED',
      failedFiles: [failed],
      error: null,
    });
    expect(records[all.id]).toMatchObject({ status: 'FAILED', error: { kind: 'name' } });
  });

  it('puts a retried download back ahead of the other queued ones, counting the retry', async () => {
    const { controller, browser, request, shown } = queueWith();
    const a = controller.enqueue(request('A'));
    controller.enqueue(request('B'));
    controller.enqueue(request('C'));
    await vi.advanceTimersByTimeAsync(0);
    browser.jobs[0]!.fail(Object.assign(new Error('disk'), { kind: 'network' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown()[0]).toEqual(['A', 'FAILED', 0]);
    // B started after the pause; A is retried while B runs.
    await vi.advanceTimersByTimeAsync(500);
    controller.retry(a.id);
    expect(shown()).toEqual([
      ['B', 'DOWNLOADING', 0],
      ['A', 'QUEUED', 1],
      ['C', 'QUEUED', 0],
    ]);
    browser.jobs[1]!.finish();
    await vi.advanceTimersByTimeAsync(500);
    expect(shown()).toEqual([
      ['B', 'COMPLETED', 0],
      ['A', 'DOWNLOADING', 1],
      ['C', 'QUEUED', 0],
    ]);
  });

  it('retries a failed folder download as a browser download or into a new folder', async () => {
    const { controller, store, browser, engine, request } = queueWith({ folders: true });
    const { id } = controller.enqueue(request('A', { method: 'unpack', folder }));
    await vi.advanceTimersByTimeAsync(0);
    engine.jobs[0]!.fail(Object.assign(new Error('gone'), { kind: 'directory_handle_invalid' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().downloads.records[id]!.error?.kind).toBe('directory_handle_invalid');
    controller.retry(id, { kind: 'folder', folder: { name: 'Elsewhere', handle: {} } });
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.jobs[1]!.job.folder?.name).toBe('Elsewhere');
    expect(store.getState().downloads.records[id]!.rootFolder).toBe('Elsewhere');
    engine.jobs[1]!.fail(new Error('something else'));
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().downloads.records[id]!.error?.kind).toBe('other');
    controller.retry(id, { kind: 'browser' });
    await vi.advanceTimersByTimeAsync(0);
    expect(browser.jobs).toHaveLength(1);
    expect(store.getState().downloads.records[id]).toMatchObject({
      method: 'browser',
      retryCount: 2,
    });
  });

  it('replaces the files in the way only when asked, and only those, into the same folder', async () => {
    const { controller, store, engine, request } = queueWith({ folders: true });
    const { id } = controller.enqueue(request('A', { method: 'unpack', folder }));
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.jobs[0]!.job.replace).toEqual([]);
    const inTheWay = { files: ['Grade/notes.txt', 'lut.cube'] };
    const occupied = () =>
      Object.assign(new Error('This folder already has 2 files…'), {
        kind: 'occupied',
        cause: inTheWay,
      });
    engine.jobs[0]!.fail(occupied());
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().downloads.records[id]!.error).toEqual({
      kind: 'occupied',
      message: 'This folder already has 2 files…',
    });
    // Retry as it was asks again; Replace files hands the runner exactly the files it named.
    controller.retry(id);
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.jobs[1]!.job.replace).toEqual([]);
    engine.jobs[1]!.fail(occupied());
    await vi.advanceTimersByTimeAsync(500);
    controller.retry(id, { kind: 'replace' });
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.jobs[2]!.job).toMatchObject({ folder, replace: inTheWay.files });
  });

  it('cancels a running download (its run is aborted) and a queued one', async () => {
    const { controller, browser, request, shown } = queueWith();
    const a = controller.enqueue(request('A'));
    const b = controller.enqueue(request('B'));
    controller.enqueue(request('C'));
    await vi.advanceTimersByTimeAsync(0);
    controller.cancel(b.id);
    controller.cancel(a.id);
    expect(browser.jobs[0]!.job.signal.aborted).toBe(true);
    expect(shown()).toEqual([['C', 'QUEUED', 0]]);
    browser.jobs[0]!.fail(new DOMException('aborted', 'AbortError'));
    await vi.advanceTimersByTimeAsync(500);
    expect(shown()).toEqual([['C', 'DOWNLOADING', 0]]);
  });

  it('fails a download the server refuses with its reason, and tells the button that asked', async () => {
    const { controller, store, browser, request } = queueWith();
    const { id, granted } = controller.enqueue(
      request('A', {
        grant: () => Promise.reject(new Error('This package has expired')),
      }),
    );
    await expect(granted).rejects.toThrow('This package has expired');
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().downloads.records[id]).toMatchObject({
      status: 'FAILED',
      error: { kind: 'refused', message: 'This package has expired' },
    });
    expect(browser.jobs).toHaveLength(0);
  });

  it('gives a queued download the folder picked for it', async () => {
    const { controller, store, engine, browser, request } = queueWith({ folders: true });
    controller.enqueue(request('A'));
    const b = controller.enqueue(request('B', { unpackOption: 'no' }));
    await vi.advanceTimersByTimeAsync(0);
    controller.placeInFolder(b.id, folder);
    expect(store.getState().downloads.records[b.id]).toMatchObject({
      method: 'tar',
      rootFolder: 'Dailies',
      detarFile: false,
    });
    browser.jobs[0]!.finish();
    await vi.advanceTimersByTimeAsync(500);
    expect(engine.jobs[0]!.job.method).toBe('tar');
  });

  it("hands a recipient's receipt request to the folder engine, and shows when it was signed", async () => {
    const { controller, store, browser, engine, request } = queueWith({ folders: true });
    const asked: unknown[] = [];
    const receipt: ReceiptCalls = {
      challenge: async () => ({ challenge: 'c', nonce: '00', ranges: [], expires_at: '' }),
      issue: async (request) => {
        asked.push(request);
        return {} as never;
      },
    };
    const { id } = controller.enqueue(request('A', { method: 'unpack', folder, receipt }));
    await vi.advanceTimersByTimeAsync(0);
    const { job } = engine.jobs[0]!;
    engine.jobs[0]!.finish({ verifiedFiles: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().downloads.records[id]!.receipted).toBe(false);
    // The engine asks with the queue's calls and says when the server signed one.
    const answered = { challenge: 'c', answers: [], verified: 3, unverified: [], failed: [] };
    await job.receipt!.calls.issue(answered);
    expect(asked).toEqual([answered]);
    job.receipt!.issued();
    expect(store.getState().downloads.records[id]!.receipted).toBe(true);

    // The browser's own download cannot check files: it is given no receipt to ask.
    controller.enqueue(request('B', { receipt }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(browser.jobs[0]!.job.receipt).toBeUndefined();
  });
});

describe('downloads kept for a later page', () => {
  /** A keeper in memory, shared by two controllers as two pages share IndexedDB. */
  function memoryKeeper() {
    const kept = new Map<string, KeptDownload>();
    const held = new Set<string>();
    const keeper: DownloadKeeper = {
      save: async (download) => void kept.set(download.id, structuredClone(download)),
      forget: async (id) => void kept.delete(id),
      list: async (owner) => [...kept.values()].filter((k) => k.owner === owner && !held.has(k.id)),
      hold: (id) => {
        held.add(id);
        return () => held.delete(id);
      },
    };
    return { keeper, kept, held };
  }

  function pageWith(keeper: DownloadKeeper, allowed = true) {
    const engine = scriptedRunner();
    const regranted: GrantSource[] = [];
    const receiptsAsked: GrantSource[] = [];
    const controller = new DownloadController({
      browser: scriptedRunner().runner,
      folder: engine.runner,
      pickFolder: async () => folder,
      keeper,
      regrant: async (source) => {
        regranted.push(source);
        return tarOf('a', 'b');
      },
      receiptOf: (source) => ({
        challenge: async () => {
          receiptsAsked.push(source);
          return { challenge: 'c', nonce: '00', ranges: [], expires_at: '' };
        },
        issue: async () => ({}) as never,
      }),
      allowFolder: async () => allowed,
    });
    const store = configureStore({ reducer: { downloads: downloadsReducer } });
    controller.attach(store);
    return { controller, store, engine, regranted, receiptsAsked };
  }

  const source: GrantSource = { kind: 'received', slug: 'reel', userPath: null };
  const request: DownloadRequest = {
    receivedPackage: 'Reel',
    packageSlug: 'reel',
    packageFile: null,
    method: 'unpack',
    unpackOption: 'yes',
    invalidFilenames: false,
    grant: async () => tarOf('a', 'b'),
    folder,
    source,
  };

  it("keeps a folder download while it runs, and the owner's next page offers it again", async () => {
    const { keeper, kept, held } = memoryKeeper();
    const first = pageWith(keeper);
    await first.controller.restore('user:7');
    first.controller.enqueue(request);
    await vi.waitFor(() => expect(first.engine.jobs).toHaveLength(1));
    await vi.waitFor(() => expect(kept.size).toBe(1));
    const [entry] = kept.values();
    expect(entry).toMatchObject({ owner: 'user:7', folder: { name: 'Dailies' }, source });
    // Never the grant's URL: it is a credential, and a new grant is asked anyway.
    expect(JSON.stringify(entry)).not.toContain('secret-grant');
    // Running here: no other page offers it.
    expect(held.size).toBe(1);
    expect(await keeper.list('user:7')).toEqual([]);

    // The page closes mid-download (its lock goes with it); the next page offers it as Failed.
    held.clear();
    const second = pageWith(keeper);
    await second.controller.restore('user:8');
    expect(selectDownloads(second.store.getState())).toEqual([]);
    await second.controller.restore('user:7');
    const [offered] = selectDownloads(second.store.getState());
    expect(offered).toMatchObject({
      receivedPackage: 'Reel',
      status: 'FAILED',
      rootFolder: 'Dailies',
      method: 'unpack',
      error: { kind: 'interrupted', message: interruptedMessage },
    });

    // Retry asks the folder's access, a new grant by the kept source, and runs into the folder.
    second.controller.retry(offered!.identifier);
    await vi.waitFor(() => expect(second.engine.jobs).toHaveLength(1));
    expect(second.regranted).toEqual([source]);
    expect(second.engine.jobs[0]!.job).toMatchObject({
      method: 'unpack',
      folder: { name: 'Dailies' },
    });
    // Resumed on this page, it asks the sender's receipt as its first page would have.
    const { receipt } = second.engine.jobs[0]!.job;
    second.engine.jobs[0]!.finish({ verifiedFiles: 2 });
    await vi.waitFor(() => expect(kept.size).toBe(0));
    expect(selectDownloads(second.store.getState())[0]!.status).toBe('COMPLETED');
    await receipt!.calls.challenge();
    expect(second.receiptsAsked).toEqual([source]);
    receipt!.issued();
    expect(selectDownloads(second.store.getState())[0]!.receipted).toBe(true);
  });

  it('says the folder is gone when its access is refused on Retry', async () => {
    const { keeper, kept } = memoryKeeper();
    kept.set('download-old', {
      id: 'download-old',
      owner: 'link:reel',
      fields: { ...request, grant: undefined } as unknown as KeptDownload['fields'],
      folder,
      source,
    });
    const page = pageWith(keeper, false);
    await page.controller.restore('link:reel');
    page.controller.retry('download-old');
    await vi.waitFor(() =>
      expect(selectDownloads(page.store.getState())[0]!.error?.kind).toBe(
        'directory_handle_invalid',
      ),
    );
    expect(page.engine.jobs).toEqual([]);
  });

  it('forgets a download that was cancelled', async () => {
    const { keeper, kept } = memoryKeeper();
    const page = pageWith(keeper);
    await page.controller.restore('user:7');
    const { id } = page.controller.enqueue(request);
    await vi.waitFor(() => expect(kept.size).toBe(1));
    page.controller.cancel(id);
    await vi.waitFor(() => expect(kept.size).toBe(0));
  });
});
