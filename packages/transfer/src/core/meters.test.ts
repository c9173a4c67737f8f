import { describe, expect, it } from 'vitest';
import { estimateSeconds, NeverBackward, RateMeter } from './meters';

describe('RateMeter', () => {
  it('averages over the samples of the last second', () => {
    let now = 0;
    const meter = new RateMeter(() => now);
    for (let i = 0; i <= 10; i++) {
      now = i * 100;
      meter.sample(i * 50_000);
    }
    expect(meter.rate()).toBe(500_000);
    // A burst two seconds ago no longer counts.
    now = 3000;
    meter.sample(600_000);
    expect(meter.rate()).toBe(0);
    now = 3500;
    meter.sample(700_000);
    expect(meter.rate()).toBe(200_000);
  });

  it('keeps at most 20 samples', () => {
    let now = 0;
    const meter = new RateMeter(() => now);
    // 30 samples 10 ms apart: the first ten fall out, leaving 190 ms of history.
    for (let i = 0; i < 30; i++) {
      now = i * 10;
      meter.sample(i < 10 ? 0 : (i - 10) * 1000);
    }
    expect(meter.rate()).toBe(100_000);
  });
});

describe('estimateSeconds', () => {
  it('rounds up, and knows nothing without a rate', () => {
    expect(estimateSeconds(1001, 100)).toBe(11);
    expect(estimateSeconds(0, 0)).toBe(0);
    expect(estimateSeconds(10, 0)).toBeNull();
  });
});

describe('NeverBackward', () => {
  it('keeps the highest value seen', () => {
    const shown = new NeverBackward();
    expect([5, 3, 8, 7].map((v) => shown.update(v))).toEqual([5, 5, 8, 8]);
  });
});
