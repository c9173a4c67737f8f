import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { floorBytes, parseFreeFloor } from './free-space';

const GiB = 1024 ** 3;

describe('the free-space floor', () => {
  it('is by default the smaller of 1 GiB and 5 % of the volume', () => {
    const byDefault = parseFreeFloor(undefined)!;
    expect(byDefault).toEqual({ kind: 'default' });
    // A 500 GB disk keeps 1 GiB; a 10 GiB one keeps 512 MiB; a 100 MB tmpfs 5 MB.
    expect(floorBytes(byDefault, 500e9)).toBe(GiB);
    expect(floorBytes(byDefault, 20 * GiB)).toBe(GiB);
    expect(floorBytes(byDefault, 10 * GiB)).toBe(GiB / 2);
    expect(floorBytes(byDefault, 100e6)).toBe(5e6);
  });

  it('reads sizes in bytes, decimal and binary units, and shares of the volume', () => {
    expect(floorBytes(parseFreeFloor('1073741824')!, 1e12)).toBe(GiB);
    expect(floorBytes(parseFreeFloor('512MiB')!, 1e12)).toBe(512 * 1024 ** 2);
    expect(floorBytes(parseFreeFloor('2GB')!, 1e12)).toBe(2e9);
    expect(floorBytes(parseFreeFloor('1.5 gib')!, 1e12)).toBe(1.5 * GiB);
    expect(floorBytes(parseFreeFloor('0')!, 1e12)).toBe(0);
    expect(floorBytes(parseFreeFloor('10%')!, 200e6)).toBe(20e6);
    expect(floorBytes(parseFreeFloor(' ')!, 200e6)).toBe(10e6);
  });

  it('refuses anything else, naming the variable at start-up', () => {
    for (const text of ['lots', '-1', '5 parsecs', '150%', '1e9', '%']) {
      expect(parseFreeFloor(text), text).toBeNull();
    }
    expect(() => loadConfig({ STORAGE_FREE_FLOOR: 'lots' })).toThrow(/STORAGE_FREE_FLOOR/);
    expect(loadConfig({ STORAGE_FREE_FLOOR: '40MB' }).storageFreeFloor).toEqual({
      kind: 'bytes',
      bytes: 40e6,
    });
    expect(loadConfig({}).storageFreeFloor).toEqual({ kind: 'default' });
  });
});
