import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishObjectFile } from './object-file';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'object-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = { key: 'a.bin', contentType: 'application/octet-stream', metadata: {} };
const target = () => ({ tempDir: dir, filePath: path.join(dir, 'a.bin') });

describe('publishObjectFile', () => {
  it('fails, and leaves nothing, for a body its client destroyed before the write began', async () => {
    // As a FormPost's file when the client goes away while the temp file is being opened.
    const body = new PassThrough();
    body.on('error', () => undefined);
    body.write('partial');
    body.destroy(new Error('client went away'));

    await expect(publishObjectFile(target(), record, body, { maxBytes: 1024 })).rejects.toThrow(
      'client went away',
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails for a body that closed early without an error', async () => {
    const body = new PassThrough();
    body.write('partial');
    body.destroy();

    await expect(publishObjectFile(target(), record, body, { maxBytes: 1024 })).rejects.toThrow(
      'The body ended before it was complete',
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
