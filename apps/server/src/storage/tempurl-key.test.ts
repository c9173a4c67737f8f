import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMBEDDED_TEMPURL_KEY_FILE, loadEmbeddedTempUrlKey } from './tempurl-key';

describe('loadEmbeddedTempUrlKey', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tempurl-key-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates one key, keeps it private and returns it on every later start', async () => {
    const keys = await Promise.all([1, 2, 3, 4].map(() => loadEmbeddedTempUrlKey(dataDir)));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dataDir, EMBEDDED_TEMPURL_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadEmbeddedTempUrlKey(dataDir)).toBe(keys[0]);
    expect((await readFile(file, 'utf8')).trim()).toBe(keys[0]);
  });

  it('prefers the configured key (EMBEDDED_STORE_TEMPURL_KEY)', async () => {
    expect(await loadEmbeddedTempUrlKey(dataDir, 'configured')).toBe('configured');
    await expect(stat(path.join(dataDir, EMBEDDED_TEMPURL_KEY_FILE))).rejects.toThrow();
  });
});
