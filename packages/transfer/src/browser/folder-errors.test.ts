import { describe, expect, it } from 'vitest';
import { DownloadSinkError } from '../core/download/ports';
import { isSystemFolder } from './download-folder';
import { folderErrorOf } from './folder-errors';

const sinkError = (error: unknown, folderGone = false) => {
  const mapped = folderErrorOf(error, 'Rushes/A001.mov', folderGone);
  expect(mapped).toBeInstanceOf(DownloadSinkError);
  const { kind, fatal, message } = mapped as DownloadSinkError;
  return { kind, fatal, message };
};

describe('what a refusal of the file system means for the download', () => {
  it('stops the download on a full disk, a refused write, or a folder gone', () => {
    expect(sinkError(new DOMException('full', 'QuotaExceededError'))).toMatchObject({
      kind: 'quota_exceeded',
      fatal: true,
    });
    expect(sinkError(new DOMException('no', 'NotAllowedError'))).toMatchObject({
      kind: 'write',
      fatal: true,
    });
    expect(sinkError(new DOMException('no', 'SecurityError'))).toMatchObject({
      kind: 'write',
      fatal: true,
    });
    expect(sinkError(new DOMException('gone', 'NotFoundError'), true)).toMatchObject({
      kind: 'directory_handle_invalid',
      fatal: true,
    });
    expect(sinkError(new DOMException('gone', 'InvalidStateError'), true)).toMatchObject({
      kind: 'directory_handle_invalid',
      fatal: true,
    });
  });

  it('fails only the file whose name the folder refuses, or which was removed under it', () => {
    expect(sinkError(new TypeError('Name is not allowed.'))).toEqual({
      kind: 'name',
      fatal: false,
      message: 'Rushes/A001.mov: the folder does not accept this name',
    });
    expect(sinkError(new DOMException('gone', 'NotFoundError'), false)).toMatchObject({
      kind: 'write',
      fatal: false,
    });
    expect(sinkError(new Error('odd'))).toMatchObject({ kind: 'other', fatal: false });
  });

  it('lets a cancelled download end as cancelled, and keeps errors already classified', () => {
    const aborted = new DOMException('stopped', 'AbortError');
    expect(folderErrorOf(aborted, 'a', false)).toBe(aborted);
    const classified = new DownloadSinkError('name', 'x', false);
    expect(folderErrorOf(classified, 'a', true)).toBe(classified);
  });
});

describe('the folders a download may not be written into', () => {
  it('refuses Downloads, Documents and Desktop whatever their case, and accepts others', () => {
    for (const name of ['Downloads', 'documents', 'DESKTOP', ' Desktop ']) {
      expect(isSystemFolder({ name })).toBe(true);
    }
    for (const name of ['Downloads from Jo', 'Grading', 'Desk']) {
      expect(isSystemFolder({ name })).toBe(false);
    }
  });
});
