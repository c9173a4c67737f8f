import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A fresh temporary folder to hold a data folder of the embedded defaults. Others may pass
 * through it (not list it): run as root, the embedded PostgreSQL runs as an unprivileged user
 * that must reach its files inside.
 */
export async function tempDataParent(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(dir, 0o711);
  return dir;
}
