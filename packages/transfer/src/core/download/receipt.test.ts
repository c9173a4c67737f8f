import { describe, expect, it } from 'vitest';
import { ApiError, type Clock, type DeliveryReceipt } from '@filerunner/protocol';
import { requestReceipt } from './receipt';
import type { DownloadOutcome } from './ports';

const outcome: DownloadOutcome = {
  verifiedFiles: 2,
  unverifiedFiles: ['notes.txt'],
  failedFiles: [{ path: 'reel.mov', kind: 'verification', message: 'does not match' }],
  fetchedBytes: 10,
};
const issued = { id: 1, receipt: 'h.p.s' } as DeliveryReceipt;

/** A clock whose sleeps are only counted. */
function countingClock() {
  const slept: number[] = [];
  const clock: Clock = { now: () => 0, sleep: async (ms) => void slept.push(ms) };
  return { clock, slept };
}

describe('requestReceipt', () => {
  it("reports the engine's check and asks again while the server has not recorded the end", async () => {
    const { clock, slept } = countingClock();
    const reports: unknown[] = [];
    let answers = 0;
    const got = await requestReceipt(
      async (report) => {
        reports.push(report);
        if (++answers < 3) throw new ApiError('HTTP_ERROR', 409, {}, 'not yet');
        return issued;
      },
      outcome,
      clock,
    );
    expect(got).toBe(issued);
    expect(reports[0]).toEqual({ verified: 2, unverified: ['notes.txt'], failed: ['reel.mov'] });
    expect(slept).toEqual([500, 1000]);
  });

  it('gives up quietly on a refusal, and after five tries', async () => {
    const { clock, slept } = countingClock();
    const refused = await requestReceipt(
      async () => {
        throw { status: 404 };
      },
      outcome,
      clock,
    );
    expect(refused).toBeNull();
    expect(slept).toEqual([]);
    const never = await requestReceipt(
      async () => {
        throw { status: 409 };
      },
      outcome,
      clock,
    );
    expect(never).toBeNull();
    expect(slept).toEqual([500, 1000, 1500, 2000]);
  });
});
