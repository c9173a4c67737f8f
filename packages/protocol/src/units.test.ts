import { describe, expect, it } from 'vitest';
import { formatDuration, formatRate, formatSize, parseSize } from './units';

describe('sizes, rates and durations for people', () => {
  it('tells sizes in decimal units', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(999)).toBe('999 bytes');
    expect(formatSize(1000)).toBe('1 KB');
    expect(formatSize(1500)).toBe('1.5 KB');
    expect(formatSize(3_212_465)).toBe('3.2 MB');
    expect(formatSize(999_960)).toBe('1 MB');
    expect(formatSize(150_000_000)).toBe('150 MB');
    expect(formatSize(50 * 1000 ** 3)).toBe('50 GB');
    expect(formatSize(2.5 * 1000 ** 4)).toBe('2.5 TB');
  });

  it('reads sizes as a person writes them', () => {
    expect(parseSize('1000')).toBe(1000);
    expect(parseSize('500 MB')).toBe(500_000_000);
    expect(parseSize('1.5GB')).toBe(1_500_000_000);
    expect(parseSize(' 10 gib ')).toBe(10 * 2 ** 30);
    expect(parseSize('2 TB')).toBe(2e12);
    expect(parseSize(formatSize(48e9))).toBe(48e9);
    for (const bad of ['', 'MB', '-1 MB', '10 parsecs', '1e9', '1,000', '99999 PB']) {
      expect(parseSize(bad), bad).toBeNull();
    }
  });

  it('tells rates in bits per second', () => {
    expect(formatRate(0)).toBe('0 b/s');
    expect(formatRate(100)).toBe('800 b/s');
    expect(formatRate(125)).toBe('1 kb/s');
    expect(formatRate(1_250_000)).toBe('10 Mb/s');
    expect(formatRate(11_750_000)).toBe('94 Mb/s');
    expect(formatRate(150_000_000)).toBe('1.2 Gb/s');
  });

  it('tells time left to the precision that matters', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(44.2)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(185)).toBe('3 min 5 s');
    expect(formatDuration(725)).toBe('12 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(7800)).toBe('2 h 10 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 59)).toBe('3 d 4 h');
  });
});
