import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../test-support/manual-clock';
import { MemoryResumeStore } from '../test-support/memory-resume-store';
import { ScriptedHttp, type RecordedRequest } from '../test-support/scripted-http';
import type { DownloadEvent } from './events';
import { ledgerKeyOf, type DownloadLedger } from './ledger';
import { DownloadFailedError, EMPTY_XXH128 } from './options';
import { DownloadSinkError, type DownloadJob, type DownloadProgress } from './ports';
import { runDownload } from './runner';
import {
  askedRange,
  bytesOf,
  DOWNLOAD_URL,
  ETAG,
  fakePackage,
  MemoryHasher,
  MemorySink,
  partial,
  serveObject,
  xxh128Of,
  type PackageFile,
} from './test-support/download-script';

const clients: ScriptedHttp[] = [];
afterEach(() => {
  for (const http of clients.splice(0)) http.verify();
});

/** Members of every kind: small, one across several chunks, empty, non-ASCII, deep, long. */
const sampleFiles = (): PackageFile[] => [
  { path: 'readme.txt', bytes: bytesOf(700, 1) },
  { path: 'Shoot/A001.mov', bytes: bytesOf(5000, 2) },
  { path: 'empty.txt', bytes: new Uint8Array() },
  { path: 'docs/ünïcode — naïve.txt', bytes: bytesOf(513, 3) },
  { path: `deep/${'x'.repeat(120)}/a/b/c/file.dat`, bytes: bytesOf(2001, 4) },
  { path: 'last.bin', bytes: bytesOf(1, 5) },
];

async function setUp(files = sampleFiles(), mode: 'unpack' | 'tar' = 'unpack') {
  const pkg = await fakePackage(files);
  const clock = new ManualClock();
  const http = new ScriptedHttp({ clock });
  clients.push(http);
  const routes = serveObject(http, pkg.tar);
  const sink = new MemorySink(mode);
  const events: DownloadEvent[] = [];
  const progress: DownloadProgress[] = [];
  const hasher = new MemoryHasher();
  const job = (over: Partial<DownloadJob> = {}): DownloadJob => ({
    descriptor: pkg.descriptor,
    sink,
    http,
    clock,
    hasher,
    options: { chunkSize: 1000, concurrentChunks: 3 },
    onEvent: (event) => events.push(event),
    onProgress: (p) => progress.push(p),
    ...over,
  });
  return { ...pkg, files, clock, http, routes, sink, events, progress, hasher, job };
}

const gets = (http: ScriptedHttp) => http.sent('GET', DOWNLOAD_URL);
const rangeOf = (request: RecordedRequest) => askedRange(request.headers);

describe('runDownload', () => {
  it('unpacks every member where it belongs, across chunk edges, and checks each', async () => {
    const t = await setUp();
    const outcome = await runDownload(t.job());

    t.files.forEach((file, index) => expect(t.sink.files.get(index)).toEqual(file.bytes));
    expect(outcome).toEqual({
      verifiedFiles: 6,
      unverifiedFiles: [],
      failedFiles: [],
      fetchedBytes: expect.any(Number),
    });
    // Every non-empty file closed exactly once; the empty one made by open, never written.
    expect([...t.sink.closed].sort()).toEqual([0, 1, 3, 4, 5]);
    expect(t.hasher.hashed).toHaveLength(5);
    // Ranged GETs of at most a chunk, guarded by the HEAD's ETag, covering the files' bytes.
    const requests = gets(t.http);
    expect(requests.length).toBeGreaterThan(8);
    for (const request of requests) {
      expect(request.headers['if-range']).toBe(ETAG);
      const [start, end] = rangeOf(request);
      expect(end - start).toBeLessThanOrEqual(1000);
    }
    const first = t.layout.entries[0]!.dataOffset;
    const last = t.layout.entries[5]!;
    expect(outcome.fetchedBytes).toBe(last.dataOffset + 1 - first);
    expect(t.sink.disposed).toBe(true);
  });

  it('keeps the .tar whole in tar mode and still checks each member in it', async () => {
    const t = await setUp(sampleFiles(), 'tar');
    const outcome = await runDownload(t.job());
    expect(t.sink.files.get(0)).toEqual(t.tar);
    expect(t.sink.closed).toEqual([0]);
    expect(outcome.verifiedFiles).toBe(6);
    expect(outcome.fetchedBytes).toBe(t.tar.length);
  });

  it('retries a chunk after a 5xx, no answer, or a body cut short, from where it stopped', async () => {
    const t = await setUp();
    const cut = (request: RecordedRequest) => {
      const [start, end] = rangeOf(request);
      const half = start + Math.floor((end - start) / 2);
      return {
        ...partial(t.tar, start, end),
        body: () => cutStream(t.tar.slice(start, half)),
      };
    };
    t.routes.get.clear();
    const served = serveObject(t.http, t.tar).get;
    served.once({ status: 503 }, { networkError: 'reset' }, cut);
    const outcome = await runDownload(t.job({ options: { chunkSize: 1000, concurrentChunks: 1 } }));

    t.files.forEach((file, index) => expect(t.sink.files.get(index)).toEqual(file.bytes));
    expect(outcome.failedFiles).toEqual([]);
    const retried = t.events.filter((e) => e.type === 'chunk-retried');
    expect(retried).toHaveLength(3);
    // The cut chunk asks again only for the bytes after those it wrote.
    const [cutStart, cutEnd] = rangeOf(served.requests[2]!);
    const [againStart, againEnd] = rangeOf(served.requests[3]!);
    expect(againStart).toBe(cutStart + Math.floor((cutEnd - cutStart) / 2));
    expect(againEnd).toBe(cutEnd);
  });

  it('stops with a network error when a chunk keeps failing', async () => {
    const t = await setUp();
    t.routes.get.clear();
    t.http.on('GET', DOWNLOAD_URL).reply({ status: 502 });
    const failure = await runDownload(t.job()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DownloadFailedError);
    expect((failure as DownloadFailedError).kind).toBe('network');
    // One chunk was tried 1 + 3 times before the download stopped.
    expect(t.events.filter((e) => e.type === 'chunk-retried' && e.chunk === 0)).toHaveLength(3);
  });

  it('refuses a 200 to If-Range: the object changed, and no new byte is mixed in', async () => {
    const t = await setUp();
    t.routes.get.clear();
    const changed = bytesOf(t.tar.length, 99);
    const now = serveObject(t.http, changed, '"tar-etag-2"');
    // The HEAD saw the old object; by the GETs it has changed.
    now.head.reply({ headers: { 'content-length': String(t.tar.length), etag: ETAG } });
    const failure = await runDownload(t.job()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DownloadFailedError);
    expect((failure as Error).message).toMatch(/changed on the server/);
    for (const bytes of t.sink.files.values()) expect(bytes.every((b) => b === 0)).toBe(true);
  });

  it('refuses a Content-Range other than the one asked for', async () => {
    const t = await setUp();
    t.http.on('GET', DOWNLOAD_URL).once(partial(t.tar, 0, 1000));
    const failure = await runDownload(t.job()).catch((e: unknown) => e);
    expect((failure as Error).message).toMatch(/other bytes than asked/);
  });

  it('refuses to start when the HEAD names another size than the grant', async () => {
    const t = await setUp();
    t.routes.head.reply({ headers: { 'content-length': '12', etag: ETAG } });
    await expect(runDownload(t.job())).rejects.toThrow(/12 bytes/);
    expect(gets(t.http)).toHaveLength(0);
  });

  it('restarts a chunk that sends nothing for 180 s, from where its bytes end', async () => {
    const t = await setUp();
    t.clock.holdSleeps();
    let held = true;
    t.http.on('GET', DOWNLOAD_URL).once((request) => {
      const [start, end] = rangeOf(request);
      return {
        ...partial(t.tar, start, end),
        body: () => silentAfter(t.tar.slice(start, start + 100)),
      };
    });
    const running = runDownload(t.job({ options: { chunkSize: 1000, concurrentChunks: 1 } }));
    const done = running.finally(() => (held = false));
    await passTimeUntil(done, t.clock, () => held);
    const stalled = t.events.find((e) => e.type === 'chunk-stalled');
    expect(stalled).toMatchObject({ chunk: 0, why: 'no-progress' });
    const requests = gets(t.http);
    expect(rangeOf(requests[1]!)[0]).toBe(rangeOf(requests[0]!)[0] + 100);
    t.files.forEach((file, index) => expect(t.sink.files.get(index)).toEqual(file.bytes));
  });

  it('tells progress that never goes backward and ends at the whole', async () => {
    const t = await setUp();
    t.http.on('GET', DOWNLOAD_URL).once({ networkError: 'reset' });
    await runDownload(t.job());
    const received = t.progress.map((p) => p.receivedBytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    const total = t.files.reduce((sum, f) => sum + f.bytes.length, 0);
    expect(t.progress.at(-1)).toMatchObject({
      totalBytes: total,
      receivedBytes: total,
      totalFiles: 6,
      completedFiles: 6,
    });
  });

  it('resumes from the ledger, fetching only what the first run did not write', async () => {
    const files = [
      { path: 'a.bin', bytes: bytesOf(3000, 1) },
      { path: 'b.bin', bytes: bytesOf(3000, 2) },
      { path: 'c.bin', bytes: bytesOf(3000, 3) },
    ];
    const t = await setUp(files);
    const ledger = new MemoryResumeStore<DownloadLedger>();
    const stop = new AbortController();
    const first = runDownload(
      t.job({
        ledger,
        signal: stop.signal,
        options: { chunkSize: 1000, concurrentChunks: 1 },
        onEvent: (e) => e.type === 'file-closed' && e.path === 'a.bin' && stop.abort(),
      }),
    );
    await expect(first).rejects.toThrow();
    const kept = await ledger.get(ledgerKeyOf(t.descriptor, 'unpack'));
    expect(kept?.targets['0']).toEqual({ done: 'verified' });
    const firstFetched = gets(t.http).length;

    const sink = t.sink.reopened([0, 1, 2]);
    const outcome = await runDownload(t.job({ ledger, sink }));
    files.forEach((file, index) => expect(sink.files.get(index)).toEqual(file.bytes));
    // a.bin was not fetched again: every range of the second run lies after it.
    const aEnd = t.layout.entries[0]!.dataOffset + 3000;
    for (const request of gets(t.http).slice(firstFetched)) {
      expect(rangeOf(request)[0]).toBeGreaterThanOrEqual(aEnd);
    }
    expect(outcome.fetchedBytes).toBeLessThanOrEqual(t.tar.length - aEnd);
    expect(outcome.verifiedFiles).toBe(3);
    expect(await ledger.keys()).toEqual([]);
  });

  it('claims the names in the ledger before the first write, and tells the next run', async () => {
    const t = await setUp([{ path: 'a.bin', bytes: bytesOf(3000, 1) }]);
    const ledger = new MemoryResumeStore<DownloadLedger>();
    const key = ledgerKeyOf(t.descriptor, 'unpack');
    const claims: boolean[] = [];
    const claimedAtWrites: (true | undefined)[] = [];
    class ClaimSink extends MemorySink {
      override async open(
        targets: Parameters<MemorySink['open']>[0],
        _signal?: AbortSignal,
        _writtenBefore?: ReadonlySet<number>,
        claimedBefore = false,
      ) {
        claims.push(claimedBefore);
        return super.open(targets);
      }
      override async write(index: number, offset: number, data: Uint8Array) {
        claimedAtWrites.push((await ledger.get(key))?.claimed);
        if (claimedAtWrites.length === 1) throw new DownloadSinkError('write', 'stopped', true);
        return super.write(index, offset, data);
      }
    }
    await expect(runDownload(t.job({ ledger, sink: new ClaimSink() }))).rejects.toThrow('stopped');
    await runDownload(t.job({ ledger, sink: new ClaimSink() }));
    // The first run was told nothing; the second, that the names are the download's own.
    expect(claims).toEqual([false, true]);
    expect(claimedAtWrites.every((claimed) => claimed === true)).toBe(true);
  });

  it('drops ledger ranges of targets the sink no longer holds', async () => {
    const t = await setUp([{ path: 'a.bin', bytes: bytesOf(3000, 1) }]);
    const ledger = new MemoryResumeStore<DownloadLedger>();
    await ledger.put(ledgerKeyOf(t.descriptor, 'unpack'), {
      version: 1,
      mode: 'unpack',
      etag: ETAG,
      targets: { '0': { ranges: [[0, 2000]] } },
    });
    const outcome = await runDownload(t.job({ ledger }));
    expect(outcome.fetchedBytes).toBe(3000);
    expect(t.sink.files.get(0)).toEqual(bytesOf(3000, 1));
  });

  it('fails a file whose bytes do not match its hash, names it, and leaves the rest', async () => {
    const t = await setUp([
      { path: 'good.txt', bytes: bytesOf(900, 1) },
      { path: 'bad.txt', bytes: bytesOf(900, 2), xxh128: await xxh128Of(bytesOf(900, 3)) },
      { path: 'unsigned.txt', bytes: bytesOf(10, 4), xxh128: null },
      { path: 'empty', bytes: new Uint8Array(), xxh128: EMPTY_XXH128 },
    ]);
    const outcome = await runDownload(t.job());
    expect(outcome.failedFiles).toEqual([
      { path: 'bad.txt', kind: 'verification', message: expect.stringContaining('bad.txt') },
    ]);
    expect(outcome.unverifiedFiles).toEqual(['unsigned.txt']);
    expect(outcome.verifiedFiles).toBe(2);
    expect(t.sink.discarded).toEqual([1]);
    expect(t.sink.files.get(0)).toEqual(bytesOf(900, 1));
  });

  it('fails only the file whose name the folder refuses; stops when the folder is full', async () => {
    const t = await setUp();
    t.sink.refuse.set(1, new DownloadSinkError('name', 'A001.mov: name not allowed', false));
    const outcome = await runDownload(t.job());
    expect(outcome.failedFiles).toEqual([
      { path: 'Shoot/A001.mov', kind: 'name', message: 'A001.mov: name not allowed' },
    ]);
    expect(outcome.verifiedFiles).toBe(5);

    const full = await setUp();
    full.sink.refuse.set(3, new DownloadSinkError('quota_exceeded', 'The disk is full', true));
    const failure = await runDownload(full.job()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'DownloadFailedError', kind: 'quota_exceeded' });
  });

  it('raises concurrency while the rate grows with the Aggressive algorithm', async () => {
    const files = [{ path: 'big.bin', bytes: bytesOf(200_000, 1) }];
    const t = await setUp(files);
    t.routes.get.clear();
    // Each answer takes 10 s of clock time, so rate checks happen while chunks run.
    t.http.on('GET', DOWNLOAD_URL).reply((request) => {
      const [start, end] = rangeOf(request);
      return { ...partial(t.tar, start, end), delayMs: 2000 };
    });
    t.clock.holdSleeps();
    let running = true;
    const download = runDownload(
      t.job({
        options: {
          chunkSize: 2000,
          concurrentChunks: 2,
          algorithm: 'aggressive',
          rateCheckIntervalMs: 10_000,
        },
      }),
    ).finally(() => (running = false));
    await passTimeUntil(download, t.clock, () => running);
    const raised = t.events.filter((e) => e.type === 'concurrency');
    expect(raised.length).toBeGreaterThan(0);
    expect(raised[0]).toMatchObject({ from: 2, to: 3, why: 'rate-grows' });
    expect(t.sink.files.get(0)).toEqual(files[0]!.bytes);
  });
});

/** A stream of `bytes` that then ends early, as a connection cut mid-body. */
function cutStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return controller.error(new TypeError('terminated'));
      controller.enqueue(bytes);
      sent = true;
    },
  });
}

/** A stream of `bytes` that then sends nothing more, ever. */
function silentAfter(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
    },
  });
}

/** Moves the clock a second per turn of the event loop, as time would pass, until `done`. */
async function passTimeUntil(done: Promise<unknown>, clock: ManualClock, going: () => boolean) {
  while (going()) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    clock.advance(1000);
  }
  await done;
}
