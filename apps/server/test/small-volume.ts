import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A small file system of its own that a test can really fill up. */
export interface SmallVolume {
  /** Where it is mounted. */
  readonly path: string;
  /** Its free bytes, as the server measures them. */
  freeBytes(): Promise<number>;
  /** Unmounts it and removes the folder it was mounted on. */
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs of `size` (`'48m'`) on a fresh folder (the tests run as root). `passable`
 * opens the folders to other users, for an embedded PostgreSQL, which runs as an unprivileged
 * user and must pass through every folder above its files.
 */
export async function mountSmallVolume(
  prefix: string,
  size: string,
  { passable = false } = {},
): Promise<SmallVolume> {
  const parent = await mkdtemp(path.join(tmpdir(), prefix));
  if (passable) await chmod(parent, 0o711);
  const mountPoint = path.join(parent, 'volume');
  await mkdir(mountPoint);
  const options = passable ? `size=${size},mode=0711` : `size=${size}`;
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mountPoint]);
  return {
    path: mountPoint,
    freeBytes: async () => {
      const stats = await statfs(mountPoint);
      return stats.bavail * stats.bsize;
    },
    unmount: async () => {
      execFileSync('umount', [mountPoint]);
      await rm(parent, { recursive: true, force: true });
    },
  };
}
