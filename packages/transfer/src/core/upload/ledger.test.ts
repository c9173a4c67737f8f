import { describe, expect, it } from 'vitest';
import type { ByteSource, Clock, ResumeStore } from '../ports';
import {
  emptyLedger,
  filesFingerprint,
  ledgerFits,
  LedgerWriter,
  type UploadLedger,
} from './ledger';

const file = (path: string, size = 10, lastModified = 1000): ByteSource => ({
  path,
  size,
  lastModified,
  slice: () => {
    throw new Error('not read');
  },
});

describe('filesFingerprint', () => {
  it('is the same for the same files in any order, different when one changes', () => {
    const files = [file('a/1.mov'), file('a/2.mov'), file('b.txt', 3)];
    const print = filesFingerprint(files);
    expect(filesFingerprint([...files].reverse())).toBe(print);
    expect(filesFingerprint([file('a/1.mov'), file('a/2.mov'), file('b.txt', 4)])).not.toBe(print);
    expect(filesFingerprint([file('a/1.mov'), file('a/2.mov'), file('b.txt', 3, 2000)])).not.toBe(
      print,
    );
    expect(filesFingerprint(files.slice(0, 2))).not.toBe(print);
  });
});

describe('a stored ledger', () => {
  it('fits only its own package and files', () => {
    const files = [file('a'), file('b')];
    const ledger = emptyLedger({ slug: 'p1', name: 'P', contract: { slug: 'c' } }, files);
    expect(ledgerFits(ledger, 'p1', files)).toBe(true);
    expect(ledgerFits(ledger, 'p2', files)).toBe(false);
    expect(ledgerFits(ledger, 'p1', [file('a')])).toBe(false);
    expect(ledgerFits(undefined, 'p1', files)).toBe(false);
    expect(ledgerFits({ version: 2 }, 'p1', files)).toBe(false);
  });
});

describe('LedgerWriter', () => {
  it('never overlaps writes and writes the changes made meanwhile once, after', async () => {
    const written: UploadLedger[] = [];
    let release!: () => void;
    let active = 0;
    const store: ResumeStore<UploadLedger> = {
      get: async () => undefined,
      keys: async () => [],
      delete: async () => undefined,
      put: async (_key, ledger) => {
        active++;
        expect(active).toBe(1);
        await new Promise<void>((resolve) => (release = resolve));
        written.push(ledger);
        active--;
      },
    };
    const writer = new LedgerWriter(
      emptyLedger({ slug: 'p', name: 'P', contract: { slug: 'c' } }, []),
      store,
    );
    const first = writer.change((l) => (l.slabs['s1'] = { etag: 'e1', reported: false }));
    const second = writer.change((l) => (l.slabs['s2'] = { etag: 'e2', reported: false }));
    const third = writer.change((l) => (l.slabs['s3'] = { etag: 'e3', reported: false }));
    await Promise.resolve();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await Promise.all([first, second, third]);
    await writer.idle();
    // The first write started with the first change; the two made during it went in one more.
    expect(written.map((l) => Object.keys(l.slabs))).toEqual([['s1'], ['s1', 's2', 's3']]);
  });

  it('given a clock, waits three times as long as the last write took before the next', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    };
    const writesAt: number[] = [];
    const store: ResumeStore<UploadLedger> = {
      get: async () => undefined,
      keys: async () => [],
      delete: async () => undefined,
      put: async () => {
        writesAt.push(now);
        await Promise.resolve();
        now += 20;
      },
    };
    const writer = new LedgerWriter(
      emptyLedger({ slug: 'p', name: 'P', contract: { slug: 'c' } }, []),
      store,
      clock,
    );
    const first = writer.change((l) => (l.slabs['s1'] = { etag: 'e1', reported: false }));
    const second = writer.change((l) => (l.slabs['s2'] = { etag: 'e2', reported: false }));
    await Promise.all([first, second]);
    expect(writesAt).toEqual([0, 80]);
    expect(sleeps).toEqual([60]);
    // Nothing changed since: no pause, no write.
    await writer.change(() => undefined);
    expect(writesAt).toEqual([0, 80, 100]);
  });

  it('writes a noted change without holding its caller, and nothing once removed', async () => {
    const kept = new Map<string, UploadLedger>();
    let release!: () => void;
    // The first write waits until released; later ones go through at once.
    let gate: Promise<void> | null = new Promise<void>((resolve) => (release = resolve));
    const store: ResumeStore<UploadLedger> = {
      get: async (key) => kept.get(key),
      keys: async () => [...kept.keys()],
      delete: async (key) => void kept.delete(key),
      put: async (key, ledger) => {
        await gate;
        gate = null;
        kept.set(key, ledger);
      },
    };
    const writer = new LedgerWriter(
      emptyLedger({ slug: 'p', name: 'P', contract: { slug: 'c' } }, []),
      store,
    );
    writer.note((l) => (l.slabs['s1'] = { etag: 'e1', reported: true }));
    // The write is under way and the caller already went on.
    expect(kept.get('p')).toBeUndefined();
    release();
    await writer.idle();
    expect(kept.get('p')!.slabs['s1']).toEqual({ etag: 'e1', reported: true });

    await writer.remove();
    expect(kept.has('p')).toBe(false);
    // A job that finishes after the upload was cancelled does not bring its ledger back.
    writer.note((l) => (l.slabs['s2'] = { etag: 'e2', reported: true }));
    await writer.idle();
    expect(kept.has('p')).toBe(false);
  });
});
