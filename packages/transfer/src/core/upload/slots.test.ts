import { describe, expect, it } from 'vitest';
import { Slots } from './slots';

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Slots', () => {
  it('lets holders in as their weight fits, in the order they asked', async () => {
    const slots = new Slots(10);
    const order: string[] = [];
    const take = (name: string, weight: number) =>
      slots.take(undefined, weight).then((release) => {
        order.push(name);
        return release;
      });
    const first = await take('a', 6);
    const b = take('b', 6);
    // 'c' would fit beside 'a', but waits behind 'b', which asked first.
    const c = take('c', 2);
    await settle();
    expect(order).toEqual(['a']);
    first();
    await settle();
    expect(order).toEqual(['a', 'b', 'c']);
    (await b)();
    (await c)();
  });

  it('lets a holder larger than the whole budget in alone', async () => {
    const slots = new Slots(4);
    const big = await slots.take(undefined, 100);
    let small = false;
    const waiting = slots.take(undefined, 1).then((release) => ((small = true), release));
    await settle();
    expect(small).toBe(false);
    big();
    (await waiting)();
    expect(small).toBe(true);
  });

  it('ends a wait when its signal aborts, and lets the next in', async () => {
    const slots = new Slots(1);
    const held = await slots.take();
    const stop = new AbortController();
    const stopped = slots.take(stop.signal);
    const next = slots.take();
    stop.abort(new Error('paused'));
    await expect(stopped).rejects.toThrow('paused');
    held();
    (await next)();
    await expect(slots.take(stop.signal)).rejects.toThrow('paused');
  });
});
