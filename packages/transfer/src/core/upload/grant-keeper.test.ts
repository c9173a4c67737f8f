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

  it('renews once for an object its grants do not list, and names it when none lists it', async () => {
    const STORE = 'https://store.test/v1/AUTH_fr';
    const grantsFor = (names: string[]) =>
      ({
        bulk_data: { file_data: [] },
        tempurl_data: {
          expires: 3600,
          swift_endpoint: STORE,
          swift_path: '/files/p/',
          alternative_urls: [],
          temp_url: `${STORE}/files/p/?temp_url_sig=head&temp_url_prefix=p/`,
          objects: names.map((name) => ({
            name,
            temp_url: `${STORE}/files/p/${name}?temp_url_sig=put-${name}`,
          })),
        },
      }) as unknown as BulkResponse;
    // The first grants were asked for before `slabs/2` was due again; the renewal lists it.
    const answers = [grantsFor(['slabs/1']), grantsFor(['slabs/1', 'slabs/2']), grantsFor([])];
    const keeper = new GrantKeeper(
      { now: () => 0, sleep: async () => undefined },
      async () => answers.shift()!,
      () => ({ batches: [], large_file_total_size: 0, objects: [] }),
    );
    const turn = () => 0;
    expect(await keeper.putUrlOf('slabs/1', turn)).toBe(
      `${STORE}/files/p/slabs/1?temp_url_sig=put-slabs/1`,
    );
    expect(await keeper.putUrlOf('slabs/2', turn)).toBe(
      `${STORE}/files/p/slabs/2?temp_url_sig=put-slabs/2`,
    );
    expect(answers).toHaveLength(1);
    await expect(keeper.putUrlOf('slabs/3', turn)).rejects.toThrow(
      'the upload grants hold no PUT for slabs/3',
    );
  });
});
