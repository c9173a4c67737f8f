import { describe, expect, it } from 'vitest';
import { StoreFaults } from './faults';

/** The 1-based positions of the requests that got `fault` among the next `count`. */
function positions(faults: StoreFaults, count: number, fault: 'fail' | 'drop' = 'fail') {
  const picked: number[] = [];
  for (let i = 1; i <= count; i++) if (faults.decide()?.fault === fault) picked.push(i);
  return picked;
}

describe('StoreFaults', () => {
  it('decides nothing while off', () => {
    const faults = new StoreFaults();
    expect(faults.decide()).toBeNull();
    faults.set({ fail: 1 });
    expect(faults.decide()).toEqual({ delayMs: 0, fault: 'fail' });
    faults.set(null);
    expect(faults.decide()).toBeNull();
    expect(faults.settings).toBeNull();
  });

  it('spreads faults evenly without a seed: exact counts, the same on every run', () => {
    const faults = new StoreFaults({ fail: 0.3, drop: 0, delayMs: 0 });
    expect(positions(faults, 10)).toEqual([4, 7, 10]);
    faults.set({ fail: 0.3 });
    const picked = positions(faults, 1000);
    expect(picked).toHaveLength(300);
    // Below one half, no two requests in a row fail, so a retry right after a failure succeeds.
    expect(picked.some((n, i) => picked[i + 1] === n + 1)).toBe(false);
    expect(faults.counts()).toEqual({ requests: 1000, failed: 300, dropped: 0, stalled: 0 });
  });

  it('cuts a share of the requests not failed, never one the failures already took', () => {
    const faults = new StoreFaults({ fail: 0.5, drop: 0.5, delayMs: 25 });
    expect(faults.decide()).toEqual({ delayMs: 25, fault: null });
    expect(Array.from({ length: 7 }, () => faults.decide()?.fault)).toEqual([
      'fail',
      'drop',
      'fail',
      null,
      'fail',
      'drop',
      'fail',
    ]);
    // Shares whose spreads would coincide (every 20th request is also a 10th) still both bite.
    faults.set({ fail: 0.3, drop: 0.05 });
    positions(faults, 1000);
    expect(faults.counts()).toEqual({ requests: 1000, failed: 300, dropped: 35, stalled: 0 });
  });

  it('stalls a share of the requests neither failed nor cut', () => {
    const faults = new StoreFaults({ fail: 0.25, drop: 0.5, stall: 0.5 });
    expect(Array.from({ length: 8 }, () => faults.decide()?.fault)).toEqual([
      null,
      'drop',
      'stall',
      'fail',
      'drop',
      null,
      'drop',
      'fail',
    ]);
    faults.set({ fail: 0.2, drop: 0.1, stall: 0.1 });
    positions(faults, 1000);
    expect(faults.counts()).toEqual({ requests: 1000, failed: 200, dropped: 80, stalled: 72 });
  });

  it('repeats a seeded pseudo-random sequence, near the share asked for', () => {
    const a = new StoreFaults({ fail: 0.3, drop: 0.05, delayMs: 0, seed: 42 });
    const b = new StoreFaults({ fail: 0.3, drop: 0.05, delayMs: 0, seed: 42 });
    const sequence = (faults: StoreFaults) =>
      Array.from({ length: 10_000 }, () => faults.decide()?.fault);
    const first = sequence(a);
    expect(sequence(b)).toEqual(first);
    a.set({ fail: 0.3, drop: 0.05, seed: 42 });
    expect(sequence(a)).toEqual(first);
    a.set({ fail: 0.3, drop: 0.05, seed: 43 });
    expect(sequence(a)).not.toEqual(first);
    const failed = first.filter((f) => f === 'fail').length;
    const dropped = first.filter((f) => f === 'drop').length;
    expect(failed).toBeGreaterThan(2800);
    expect(failed).toBeLessThan(3200);
    // Drops land only on requests not failed: about 5 % of the other 70 %.
    expect(dropped).toBeGreaterThan(250);
    expect(dropped).toBeLessThan(450);
  });
});
