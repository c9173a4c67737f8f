import { describe, expect, it } from 'vitest';
import { UploadQueue } from './queue';

describe('UploadQueue', () => {
  it('gives turns one at a time, in the order asked', async () => {
    const queue = new UploadQueue();
    const order: string[] = [];
    const first = await queue.turn();
    const second = queue.turn().then((release) => (order.push('second'), release));
    const third = queue.turn().then((release) => (order.push('third'), release));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual([]);
    expect(queue.length).toBe(2);
    first();
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
  });
});
