import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Md5Hasher } from './md5-hasher';

describe('Md5Hasher', () => {
  it('hashes bodies larger than its slabs, split at any boundary', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);
    body.write('start', 0);
    const hasher = new Md5Hasher();
    for (let at = 0; at < body.length; at += 700_001) {
      await hasher.update([body.subarray(at, at + 700_001)]);
    }
    expect(await hasher.digest()).toBe(createHash('md5').update(body).digest('hex'));
  });

  it('lets a process that hashed something exit on its own (a CLI or script must not hang)', async () => {
    const script = `
      const { Md5Hasher } = await import(${JSON.stringify(fileURLToPath(new URL('./md5-hasher.ts', import.meta.url)))});
      const hasher = new Md5Hasher();
      await hasher.update([Buffer.from('hello')]);
      console.log(await hasher.digest());
    `;
    const dir = await mkdtemp(path.join(tmpdir(), 'md5-hasher-'));
    const file = path.join(dir, 'hash-once.mts');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      timeout: 10_000,
    }).finally(() => rm(dir, { recursive: true, force: true }));
    expect(stdout.trim()).toBe(createHash('md5').update('hello').digest('hex'));
  });
});
