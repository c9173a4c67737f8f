import { describe, expect, it } from 'vitest';
import type { ByteSource, FileHasher } from '../ports';
import { HashBook } from './hash-book';
import { emptyLedger, LedgerWriter } from './ledger';

const MiB = 1024 * 1024;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const file = (path: string, size: number): ByteSource => ({
  path,
  size,
  lastModified: 0,
  slice: () => new Blob([]),
});

/** A hasher whose hashes end when told, counting how many run at once. */
function heldHasher() {
  const running = new Map<string, () => void>();
  const hasher: FileHasher = {
    xxh128: (source) =>
      new Promise((resolve) => running.set(source.path, () => resolve(`hash of ${source.path}`))),
  };
  const finish = (path: string) => {
    running.get(path)!();
    running.delete(path);
  };
  return { hasher, running, finish };
}

describe('HashBook', () => {
  it('hashes many small files at once, and at most two large ones', async () => {
    const { hasher, running, finish } = heldHasher();
    const ledger = new LedgerWriter(
      emptyLedger({ slug: 'p', name: 'P', contract: { slug: 'c' } }, []),
      undefined,
    );
    const book = new HashBook(hasher, ledger);
    const small = Array.from({ length: 100 }, (_, i) => file(`small/${i}`, 10 * 1024));
    const smallHashes = small.map((f) => book.of(f));
    await settle();
    expect(running.size).toBe(64);
    for (const f of small) if (running.has(f.path)) finish(f.path);
    await settle();
    expect(running.size).toBe(36);
    for (const f of small) if (running.has(f.path)) finish(f.path);
    expect(await Promise.all(smallHashes)).toEqual(small.map((f) => `hash of ${f.path}`));

    const large = ['a', 'b', 'c'].map((name) => file(`large/${name}`, 4000 * MiB));
    const largeHashes = large.map((f) => book.of(f));
    await settle();
    expect([...running.keys()]).toEqual(['large/a', 'large/b']);
    finish('large/a');
    await settle();
    expect([...running.keys()]).toEqual(['large/b', 'large/c']);
    finish('large/b');
    finish('large/c');
    await Promise.all(largeHashes);
    // Kept in the ledger, so a file is hashed once.
    expect(ledger.ledger.hashes['large/c']).toBe('hash of large/c');
    expect(await book.of(large[2]!)).toBe('hash of large/c');
  });
});
