import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FetchHttpClient,
  FolderSink,
  JsonFileResumeStore,
  ledgerKeyOf,
  runDownload,
  systemClock,
  XxhashFileHasher,
  type Clock,
  type DownloadDescriptor,
  type DownloadEvent,
  type DownloadLedger,
} from '@filerunner/transfer/node';
import {
  downloadDescriptor,
  downloadedBytes,
  expectUnpackedIn,
  keptBytesOf,
  sentToReceiver,
  tempFolders,
} from './engine-fixtures';
import { startTestServer, type TestServer } from './harness';
import type { TestFile } from './uploader';

// The download engine through its Node entry against the real server whose answers fail, stall
// and are cut mid-body by the store's own fault injection (STORE_FAULTS), which reaches the
// download route: the package's tar and a single file arrive byte for byte all the same, and a
// download stopped half-way continues from what is on disk, the server sending only the rest.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * The engine's clock, a hundred times faster than the wall's: the 180 s without a byte after
 * which a stalled chunk is restarted pass in under 2 s, the 10 s stall checks and the retries'
 * back-off in a few real milliseconds. The server's stall lasts until the engine gives up.
 */
function fastClock(): Clock {
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * 100,
    sleep: (ms, signal) => systemClock.sleep(Math.min(ms / 100, 20), signal),
  };
}

let server: TestServer;
let files: TestFile[];
let tarDescriptor: DownloadDescriptor;
let fileDescriptor: DownloadDescriptor;
const folders = tempFolders('fr-download-faults-');

beforeAll(async () => {
  server = await startTestServer();
  const sent = await sentToReceiver(server, 'Faulty network');
  files = sent.files;
  const { origin, fx, pkg } = sent;
  tarDescriptor = await downloadDescriptor(server, origin, fx.receiver, pkg.slug);
  // The segmented video: one file large enough for many ranges.
  fileDescriptor = await downloadDescriptor(server, origin, fx.receiver, pkg.slug, 'video/cut.mov');
});
afterAll(async () => {
  server?.storeFaults?.set(null);
  await server?.close();
  await folders.removeAll();
});

const newFolder = () => folders.make();
const expectPackageIn = (folder: string) => expectUnpackedIn(folder, files);

function download(
  descriptor: DownloadDescriptor,
  folder: string,
  more: Partial<Parameters<typeof runDownload>[0]> = {},
) {
  return runDownload({
    descriptor,
    sink: new FolderSink(folder, 'unpack'),
    http: new FetchHttpClient(),
    clock: fastClock(),
    hasher: new XxhashFileHasher(),
    // Small chunks: many ranged answers, cut inside the slab and between the segments. The
    // worker timeout is out of the way, so only a stall restarts a slow chunk.
    options: { chunkSize: 16 * 1024, concurrentChunks: 4, retries: 5, workerTimeoutMs: 1e12 },
    ...more,
  });
}

describe('the download engine against injected store faults', () => {
  it('unpacks the package byte for byte while ranged answers fail, stall and are cut', async () => {
    const folder = await newFolder();
    server.storeFaults!.set({ fail: 0.2, drop: 0.15, stall: 0.15 });
    const events: DownloadEvent[] = [];
    const outcome = await download(tarDescriptor, folder, { onEvent: (e) => events.push(e) });
    const counts = server.storeFaults!.counts();
    server.storeFaults!.set(null);

    expect(outcome.failedFiles).toEqual([]);
    // The package's files and its ASC MHL (hash list and chain), each checked.
    expect(outcome.verifiedFiles).toBe(files.length + 2);
    await expectPackageIn(folder);
    expect(counts.failed).toBeGreaterThanOrEqual(2);
    expect(counts.dropped).toBeGreaterThanOrEqual(1);
    expect(counts.stalled).toBeGreaterThanOrEqual(1);
    // Every stalled answer was seen as one (no byte for 180 s) and restarted; every fault retried.
    const stalled = events.filter((e) => e.type === 'chunk-stalled');
    expect(stalled).toHaveLength(counts.stalled);
    expect(stalled.every((e) => e.why === 'no-progress')).toBe(true);
    const retried = events.filter((e) => e.type === 'chunk-retried');
    expect(retried).toHaveLength(counts.failed + counts.dropped + counts.stalled);
    expect(retried.some((e) => e.reason.includes('503'))).toBe(true);
  });

  it('downloads a single file byte for byte through the same faults', async () => {
    const folder = await newFolder();
    server.storeFaults!.set({ fail: 0.25, drop: 0.25, stall: 0.25 });
    const outcome = await download(fileDescriptor, folder, {
      options: { chunkSize: 8 * 1024, concurrentChunks: 3, retries: 5, workerTimeoutMs: 1e12 },
    });
    const counts = server.storeFaults!.counts();
    server.storeFaults!.set(null);

    // The file grant carries no hash: the file is whole, and said to be unverified.
    expect(outcome.failedFiles).toEqual([]);
    expect(outcome.unverifiedFiles).toEqual([fileDescriptor.filename]);
    const video = files.find((f) => f.path === 'video/cut.mov')!;
    expect((await readFile(path.join(folder, fileDescriptor.filename))).equals(video.bytes)).toBe(
      true,
    );
    expect(counts.failed + counts.dropped + counts.stalled).toBeGreaterThanOrEqual(4);
  });

  it('continues a download stopped while an answer stalls from what is on disk', async () => {
    const folder = await newFolder();
    const ledgerFile = `${folder}-ledger.json`;
    folders.track(ledgerFile);
    const ledger = new JsonFileResumeStore<DownloadLedger>(ledgerFile);
    const key = ledgerKeyOf(tarDescriptor, 'unpack');
    // One chunk for the whole tar: the server sends its first half, then nothing.
    const whole = { chunkSize: tarDescriptor.size, concurrentChunks: 1, workerTimeoutMs: 1e12 };
    server.storeFaults!.set({ stall: 1 });
    const stop = new AbortController();
    const firstRun = download(tarDescriptor, folder, {
      ledger,
      signal: stop.signal,
      options: whole,
      // Stopped as Ctrl-C would, once the stall is seen (a crash is the CLI's test).
      onEvent: (event) => {
        if (event.type === 'chunk-stalled') stop.abort(new Error('stopped by the test'));
      },
    });
    await expect(firstRun).rejects.toThrow('stopped by the test');
    server.storeFaults!.set(null);
    const half = Math.floor(tarDescriptor.size / 2);

    const kept = (await ledger.get(key))!;
    const sizes = tarDescriptor.tar!.files.map((f) => f.size);
    const keptBytes = keptBytesOf(kept, sizes);
    // The first half of the tar is its headers and the first files' bytes, all kept.
    expect(keptBytes).toBeGreaterThan(half - 20 * 512 * 2);

    const before = await downloadedBytes(server);
    const outcome = await download(tarDescriptor, folder, { ledger, options: whole });
    const second = (await downloadedBytes(server)) - before;

    expect(outcome.failedFiles).toEqual([]);
    await expectPackageIn(folder);
    // The server sent what the engine fetched: the files' missing bytes and the tar framing
    // between them, never the half already on disk.
    expect(second).toBe(outcome.fetchedBytes);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(second).toBeGreaterThanOrEqual(total - keptBytes);
    expect(second).toBeLessThanOrEqual(tarDescriptor.size - keptBytes);
    expect(await ledger.keys()).toEqual([]);
  });
});
