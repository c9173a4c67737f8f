import { describe, expect, it } from 'vitest';
import type { ByteSource } from '@filerunner/transfer';
import type { PickedHandle } from '@filerunner/transfer/browser';
import {
  addToSelection,
  emptySelection,
  handlesToKeep,
  removeFromSelection,
} from './file-selection';

// Handles are opaque here: the selection only passes them on.
const fileHandle = (name: string) => ({ kind: 'file', name }) as unknown as FileSystemFileHandle;
const folderHandle = (name: string) =>
  ({ kind: 'directory', name }) as unknown as FileSystemDirectoryHandle;

const source = (path: string, size = 1): ByteSource => ({
  path,
  size,
  lastModified: 0,
  slice: () => new Blob([]),
});
const handled = (path: string) => ({ ...source(path), handle: fileHandle(path) });

const shoot: PickedHandle = { kind: 'directory', path: 'Shoot', handle: folderHandle('Shoot') };
const shootFiles = ['Shoot/a.mov', 'Shoot/day 2/b.mov', 'Shoot/c.mov'].map(handled);

describe('the file selection', () => {
  it('keeps each path once, a file picked again replacing the earlier one', () => {
    let selection = addToSelection(emptySelection, [source('a.txt', 1), source('b.txt', 2)]);
    selection = addToSelection(selection, [source('a.txt', 5)]);
    expect(selection.sources.map((s) => [s.path, s.size])).toEqual([
      ['b.txt', 2],
      ['a.txt', 5],
    ]);
  });

  it('keeps a picked folder whole for a resume while all its files are chosen', () => {
    const selection = addToSelection(emptySelection, shootFiles, [shoot]);
    expect(handlesToKeep(selection)).toEqual([shoot]);
  });

  it('keeps only the remaining files’ handles of a folder some files were removed from', () => {
    const selection = removeFromSelection(
      addToSelection(emptySelection, shootFiles, [shoot]),
      new Set(['Shoot/c.mov']),
    );
    expect(handlesToKeep(selection).map((h) => [h.kind, h.path])).toEqual([
      ['file', 'Shoot/a.mov'],
      ['file', 'Shoot/day 2/b.mov'],
    ]);
    expect(
      handlesToKeep(removeFromSelection(selection, new Set(['Shoot/a.mov', 'Shoot/day 2/b.mov']))),
    ).toEqual([]);
  });

  it('keeps no handles for files from an input, which have none', () => {
    const selection = addToSelection(emptySelection, [source('Shoot/a.mov')]);
    expect(handlesToKeep(selection)).toEqual([]);
  });
});
