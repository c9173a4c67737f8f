import { describe, expect, it } from 'vitest';
import { FilesInFlight, type InFlight } from './files-in-flight';

// The pool's rules with plain objects for files: what it opens, whom it parks, who waits.
const fileOf = (index: number, lastWritten = 0): InFlight => ({
  index,
  busy: 0,
  lastWritten,
  ready: true,
  closing: false,
  parking: false,
});

const settledSoon = async <T>(promise: Promise<T>) => {
  const marker = Symbol('pending');
  const winner = await Promise.race([promise, new Promise((r) => setTimeout(() => r(marker), 20))]);
  return winner === marker ? 'waiting' : winner;
};

describe('the files a download holds open', () => {
  it('opens up to its limit, then parks the least recently written idle file', async () => {
    const parked: number[] = [];
    const pool = new FilesInFlight<InFlight>(2, async (file) => void parked.push(file.index));
    const first = await pool.place(0, () => fileOf(0, 5));
    const second = await pool.place(1, () => fileOf(1, 3));
    expect(pool.size).toBe(2);
    // Both writes done: the older one (file 1) makes room for file 2.
    first.busy--;
    second.busy--;
    const third = await pool.place(2, () => fileOf(2, 9));
    expect(parked).toEqual([1]);
    expect(pool.all().map((f) => f.index)).toEqual([0, 2]);
    expect(third.busy).toBe(1);
  });

  it('waits for a place while every open file has a write under way', async () => {
    const pool = new FilesInFlight<InFlight>(1, async () => undefined);
    const busy = await pool.place(0, () => fileOf(0));
    const waiting = pool.place(1, () => fileOf(1));
    expect(await settledSoon(waiting)).toBe('waiting');
    busy.busy--;
    pool.changed();
    expect((await waiting).index).toBe(1);
  });

  it('hands the same open file to every write of it, and not while it is being parked', async () => {
    // The first park takes until the test says; later ones are immediate.
    let finishPark = () => undefined as void;
    const firstPark = new Promise<void>((resolve) => (finishPark = resolve));
    let parks = 0;
    const pool = new FilesInFlight<InFlight>(1, () =>
      parks++ === 0 ? firstPark : Promise.resolve(),
    );
    const zero = await pool.place(0, () => fileOf(0));
    expect(await pool.place(0, () => fileOf(0))).toBe(zero);
    expect(zero.busy).toBe(2);
    zero.busy = 0;
    const one = pool.place(1, () => fileOf(1));
    await settledSoon(one);
    expect(zero.parking).toBe(true);
    // A write of file 0 waits until the park is done, then opens it again.
    const zeroAgain = pool.place(0, () => fileOf(0));
    finishPark();
    const opened = await one;
    opened.busy = 0;
    pool.changed();
    expect(await zeroAgain).not.toBe(zero);
  });

  it('stops waiting when the download is cancelled', async () => {
    const pool = new FilesInFlight<InFlight>(1, async () => undefined);
    await pool.place(0, () => fileOf(0));
    const cancel = new AbortController();
    const waiting = pool.place(1, () => fileOf(1), cancel.signal);
    cancel.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
