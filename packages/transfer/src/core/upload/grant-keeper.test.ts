import { describe, expect, it } from 'vitest';
import type { BulkResponse } from '@filerunner/protocol';
import { GrantKeeper } from './grant-keeper';

const grantExpiring = (expires: number) =>
  ({ tempurl_data: { expires }, bulk_data: { file_data: [] } }) as unknown as BulkResponse;

describe('GrantKeeper', () => {
  it('renews five minutes before the grants run out, or at once after a refusal', async () => {
    let now = 0;
    const asked: number[] = [];
    const keeper = new GrantKeeper(
      { now: () => now, sleep: async () => undefined },
      async () => {
        asked.push(now);
        return grantExpiring(now / 1000 + 3600);
      },
      () => ({ batches: [], large_file_total_size: 0, objects: [] }),
    );
    const first = await keeper.current();
    now = 54 * 60_000;
    expect(await keeper.current()).toBe(first);
    now = 55 * 60_000 + 1;
    const renewed = await keeper.current();
    expect(renewed).not.toBe(first);
    keeper.markStale();
    expect(await keeper.current()).not.toBe(renewed);
    expect(asked).toEqual([0, 55 * 60_000 + 1, 55 * 60_000 + 1]);
  });

  it('asks once for workers that need grants together', async () => {
    let asked = 0;
    const keeper = new GrantKeeper(
      { now: () => 0, sleep: async () => undefined },
      async () => {
        asked++;
        return grantExpiring(3600);
      },
      () => ({ batches: [], large_file_total_size: 0, objects: [] }),
    );
    const all = await Promise.all([keeper.current(), keeper.current(), keeper.current()]);
    expect(asked).toBe(1);
    expect(new Set(all).size).toBe(1);
  });
});
