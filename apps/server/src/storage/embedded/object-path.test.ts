import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  invalidContainerName,
  invalidObjectName,
  objectFilePath,
  prefixDirectory,
} from './object-path';

const container = '/store/AUTH_x/c';

describe('object paths on disk', () => {
  it('keeps an object and the objects "below" it apart', () => {
    expect(objectFilePath(container, 'a')).toBe('/store/AUTH_x/c/a.o');
    expect(objectFilePath(container, 'a/b')).toBe('/store/AUTH_x/c/a.d/b.o');
    expect(objectFilePath(container, 'a/')).toBe('/store/AUTH_x/c/a.d/.o');
  });

  it('never leaves the container, whatever the key', () => {
    for (const key of ['..', '../x', 'a/../../b', '.', '//', '.tmp', '.container.json']) {
      const file = objectFilePath(container, key);
      expect(file.startsWith(container + path.sep), key).toBe(true);
      expect(path.normalize(file), key).toBe(file);
    }
  });

  it('gives distinct keys distinct files with names the file system accepts', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({ maxLength: 40 }),
        (a, b) => {
          if (a === b || invalidObjectName(a) || invalidObjectName(b)) return;
          const fileA = objectFilePath(container, a);
          expect(fileA).not.toBe(objectFilePath(container, b));
          for (const part of fileA.split(path.sep))
            expect(Buffer.byteLength(part)).toBeLessThanOrEqual(255);
        },
      ),
    );
  });

  it('walks only the directory a prefix can live in', () => {
    expect(prefixDirectory(container, 'pkg/123/')).toBe('/store/AUTH_x/c/pkg.d/123.d');
    expect(prefixDirectory(container, 'pkg/12')).toBe('/store/AUTH_x/c/pkg.d');
    expect(prefixDirectory(container, '')).toBe(container);
  });

  it('refuses names Swift refuses', () => {
    expect(invalidObjectName('')).not.toBeNull();
    expect(invalidObjectName('x'.repeat(1025))).toContain('longer than 1024');
    expect(invalidObjectName('é'.repeat(512))).toBeNull();
    expect(invalidObjectName('\ud800')).not.toBeNull();
    expect(invalidContainerName('a/b')).not.toBeNull();
    expect(invalidContainerName('..')).not.toBeNull();
    expect(invalidContainerName('x'.repeat(257))).not.toBeNull();
  });
});
