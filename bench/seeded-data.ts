import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './storage/processes';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/**
 * What a bench's seed script wrote into `workDir`: read back from `seeded.json` when `reuse` is
 * set and an earlier run left it there (so two versions of the server are measured on the same
 * objects), else made by running `script` (a path under the repository, run with tsx, with
 * `args`) and kept. The seed script prints its description as its last line of JSON. Seeding
 * writes gigabytes: they are flushed to disk before any round, so the write-back is not timed.
 */
export async function seededOnce<T>(options: {
  workDir: string;
  reuse: boolean;
  script: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  /** What is seeded, for the log. */
  what: string;
}): Promise<T> {
  const { workDir, log } = options;
  const seededFile = path.join(workDir, 'seeded.json');
  if (options.reuse && existsSync(seededFile)) {
    log(`reusing the data seeded in ${workDir}`);
    return JSON.parse(await readFile(seededFile, 'utf8')) as T;
  }
  log(`seeding: ${options.what} (minutes on a busy machine)`);
  await mkdir(workDir, { recursive: true });
  const seed = await run(
    process.execPath,
    ['--import', 'tsx', path.join(REPO, options.script), ...options.args],
    { cwd: REPO, env: options.env, maxBuffer: 16 * 1024 * 1024 },
  );
  const seeded = JSON.parse(seed.stdout.trim().split('\n').at(-1)!) as T;
  await writeFile(seededFile, JSON.stringify(seeded));
  await run('sync', []);
  return seeded;
}
