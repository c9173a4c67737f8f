import { describe, expect, it } from 'vitest';
import type { UploadStatus } from '@filerunner/transfer';
import { uploadOf } from './test-support/upload-records';
import {
  bannerOf,
  canClearQueue,
  queuePercent,
  queueTone,
  sentMessageOf,
  uploadPercent,
  uploadTone,
} from './upload-panel-model';

describe('the upload panel', () => {
  it('is red when something failed or is paused, yellow when retrying or force-completed', () => {
    const tone = (...statuses: UploadStatus[]) =>
      queueTone(statuses.map((s, i) => uploadOf(String(i), s)));
    expect(tone('UPLOADING', 'QUEUED')).toBe('primary');
    expect(tone('COMPLETED', 'COMPLETING', 'UPLOADED')).toBe('primary');
    expect(tone('UPLOADING', 'RETRYING')).toBe('warning');
    expect(tone('COMPLETED', 'FORCE_COMPLETED')).toBe('warning');
    expect(tone('RETRYING', 'PAUSED')).toBe('error');
    expect(tone('FORCE_COMPLETED', 'FAILED')).toBe('error');
    expect(tone('INCOMPLETE')).toBe('error');
  });

  it('rings the whole queue by bytes, and a sent package counts whole', () => {
    expect(
      queuePercent([
        uploadOf('a', 'COMPLETED', { totalBytes: 3000, completedBytes: 2000 }),
        uploadOf('b', 'UPLOADING', { totalBytes: 1000, completedBytes: 500 }),
      ]),
    ).toBe(87);
    expect(queuePercent([uploadOf('a', 'COMPLETED', { totalBytes: 0 })])).toBe(100);
    expect(uploadPercent(uploadOf('a', 'UPLOADING', { completedBytes: 250 }))).toBe(25);
  });

  it('clears only when every upload is sent and nothing downloads', () => {
    const sent = [uploadOf('a', 'COMPLETED'), uploadOf('b', 'FORCE_COMPLETED')];
    expect(canClearQueue(sent, 0)).toBe(true);
    expect(canClearQueue(sent, 1)).toBe(false);
    expect(canClearQueue([...sent, uploadOf('c', 'FAILED')], 0)).toBe(false);
    expect(canClearQueue([], 0)).toBe(false);
  });

  it("has the spec's banners, and the sent message names the emailed recipients", () => {
    const failedFile = { path: 'Shoot/a.mov', size: 4, lastModified: 1 };
    expect(bannerOf(uploadOf('a', 'FAILED', { failedFiles: [failedFile] }))).toEqual({
      severity: 'error',
      text: 'We failed to upload some of your files',
      viewFiles: true,
    });
    expect(bannerOf(uploadOf('a', 'RETRYING'))?.text).toBe(
      'We are having trouble uploading some of your files',
    );
    expect(bannerOf(uploadOf('a', 'INCOMPLETE'))?.text).toBe(
      'We experienced an issue completing your package. Please retry or cancel.',
    );
    expect(bannerOf(uploadOf('a', 'UPLOADING'))).toBeNull();
    expect(bannerOf(uploadOf('a', 'PAUSED'))).toBeNull();
    const full = uploadOf('a', 'PAUSED', { pausedFor: 'storage_full' });
    expect(bannerOf(full)).toEqual({
      severity: 'warning',
      text: 'Storage is full: the upload is paused',
      viewFiles: false,
    });
    expect(uploadTone(full)).toBe('warning');
    expect(sentMessageOf(uploadOf('a', 'COMPLETED'))).toMatch(/recipients have been emailed/);
    expect(sentMessageOf(uploadOf('a', 'COMPLETING'))).toBeNull();
  });
});
