import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** A build of apps/web in `outDir`, as `npm run build` makes it (precompressed copies included). */
export async function buildWeb(outDir: string): Promise<void> {
  await promisify(execFile)(
    'npx',
    ['vite', 'build', '--configLoader', 'runner', '--outDir', outDir, '--emptyOutDir'],
    { cwd: path.join(REPO, 'apps/web'), maxBuffer: 16 * 1024 * 1024 },
  );
}
