import { describe, expect, it } from 'vitest';
import { HeldBytes } from './held-bytes';

const text = async (blob: Blob | null) => (blob ? await blob.text() : null);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('bytes held for the hash check', () => {
  it('joins the pieces of a small file in order, whatever order they were written in', async () => {
    const held = new HeldBytes();
    held.wrote(0, 11, 0, bytes('hello'));
    held.wrote(0, 11, 8, bytes('rld'));
    held.wrote(0, 11, 5, bytes(' wo'));
    expect(await text(held.take(0))).toBe('hello world');
    // Taken once: the memory is given back.
    expect(held.take(0)).toBeNull();
  });

  it('keeps a copy: a buffer reused after the write changes nothing held', async () => {
    const held = new HeldBytes();
    const buffer = bytes('abcd');
    held.wrote(1, 4, 0, buffer);
    buffer.fill(0);
    expect(await text(held.take(1))).toBe('abcd');
  });

  it('takes a range written twice (a retried chunk) once', async () => {
    const held = new HeldBytes();
    held.wrote(0, 6, 0, bytes('abcd'));
    held.wrote(0, 6, 2, bytes('cdef'));
    held.wrote(0, 6, 0, bytes('ab'));
    expect(await text(held.take(0))).toBe('abcdef');
  });

  it('answers null for a file with a gap, a large file, or one past the budget', () => {
    const held = new HeldBytes(8, 10);
    held.wrote(0, 6, 0, bytes('ab'));
    held.wrote(0, 6, 4, bytes('ef'));
    expect(held.take(0)).toBeNull();
    held.wrote(1, 9, 0, bytes('too large'));
    expect(held.take(1)).toBeNull();
    held.wrote(2, 8, 0, bytes('12345678'));
    // 8 of 10 bytes held: a second file of 8 does not fit and holds nothing.
    held.wrote(3, 8, 0, bytes('abcdefgh'));
    expect(held.take(3)).toBeNull();
    // Taking the first gives its bytes back to the budget.
    expect(held.take(2)).not.toBeNull();
    held.wrote(4, 8, 0, bytes('abcdefgh'));
    expect(held.take(4)).not.toBeNull();
  });

  it('holds nothing of a file whose first piece came when there was no room', () => {
    const held = new HeldBytes(8, 8);
    held.wrote(0, 8, 0, bytes('12345678'));
    held.wrote(1, 4, 2, bytes('cd'));
    held.take(0);
    held.wrote(1, 4, 0, bytes('ab'));
    expect(held.take(1)).toBeNull();
  });
});
