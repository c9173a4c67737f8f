import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the embedded store keeps its signing key, relative to DATA_DIR. */
export const EMBEDDED_TEMPURL_KEY_FILE = path.join('objects', '.tempurl-key');

/**
 * The embedded store's TempURL/FormPost key: `override` (EMBEDDED_STORE_TEMPURL_KEY) when
 * given, else the key kept in `DATA_DIR/objects/.tempurl-key`, generated on first start so
 * signed URLs survive restarts. Creation is atomic (link(2) of a complete temp file), so two
 * processes starting at once agree on one key.
 */
export async function loadEmbeddedTempUrlKey(dataDir: string, override?: string): Promise<string> {
  if (override !== undefined && override !== '') return override;
  const file = path.join(dataDir, EMBEDDED_TEMPURL_KEY_FILE);
  const existing = await readKey(file);
  if (existing) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomUUID()}.tmp`;
  await writeFile(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flush: true });
  try {
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temp, { force: true });
  }
  const key = await readKey(file);
  if (!key) throw new Error(`${file} is empty`);
  return key;
}

async function readKey(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
