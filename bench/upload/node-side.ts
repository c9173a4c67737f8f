import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../storage/processes';
import { sliceObjects, wholeFileObjects } from './baseline-grants';
import type { DiskFile } from './disk-files';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a command to its end; answers its stdout, or rejects with its stderr in the message. Output
 * is read to its end before the answer (a process can exit before its output has been read).
 */
async function exec(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(command, args, { env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * The large file PUT as `parts` ranges at once by as many curl processes, each reading its range
 * from the file through `dd` (curl uploads whole files only) with its length declared, so the
 * request is not chunked (and sent at once, without waiting for `100 Continue`, as a browser does).
 */
export async function curlSlices(big: DiskFile, parts: number, urlOf: (name: string) => string) {
  const size = Math.ceil(big.size / parts);
  const objects = sliceObjects(big.name, big.size, parts);
  const started = performance.now();
  const statuses = await Promise.all(
    objects.map(({ name, size: length }, i) => {
      const script =
        `dd if="$1" bs=1M iflag=skip_bytes,count_bytes skip=${i * size} count=${length} status=none` +
        ` | curl -sS -T - -H "Content-Length: ${length}" -H "Transfer-Encoding:" -H "Expect:"` +
        ` -o /dev/null -w '%{http_code}' "$2"`;
      return exec('sh', ['-c', script, 'sh', big.file, urlOf(name)]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (statuses.some((s) => !s.startsWith('2'))) throw new Error(`curl PUTs answered ${statuses}`);
  return { seconds, requests: { storage: parts } };
}

/** One PUT per file by one curl with `parallel` transfers at once (`--parallel`). */
export async function curlPerFile(
  files: readonly DiskFile[],
  parallel: number,
  urlOf: (name: string) => string,
  configFile: string,
) {
  const quote = (s: string) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const objects = wholeFileObjects(files.map((f) => ({ path: f.name, size: f.size })));
  const config = files
    .map(
      (f, i) =>
        `url = ${quote(urlOf(objects[i]!.name))}\nupload-file = ${quote(f.file)}\noutput = "/dev/null"\n`,
    )
    .join('');
  await writeFile(configFile, config);
  const started = performance.now();
  const out = await exec('curl', [
    '--parallel',
    '--parallel-max',
    String(parallel),
    '-sS',
    '-K',
    configFile,
    '-w',
    '%{http_code}\\n',
  ]);
  const seconds = (performance.now() - started) / 1000;
  const stored = out.split('\n').filter((s) => s.startsWith('2')).length;
  if (stored !== files.length) throw new Error(`curl stored ${stored} of ${files.length} files`);
  return { seconds, files: stored, requests: { storage: files.length } };
}

export type NodeSent = {
  seconds: number;
  files: number;
  client_cpu_s: number;
  client_peak_rss_mib: number;
  workers: number;
  slab_files: boolean;
  objects: Record<string, number>;
  requests: Record<string, number>;
};

/**
 * One upload through the engine's Node entry in a process of its own (node-send.ts): answers
 * once it has picked the files and created the package; `go` starts the upload.
 */
export async function nodeEngine(
  origin: string,
  password: string,
  paths: string[],
  ledgerFile: string,
): Promise<{ go: () => Promise<NodeSent> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./node-send.ts', import.meta.url)),
      JSON.stringify({ origin, password, paths, ledgerFile }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  // 'close', not 'exit': the last line (the figures) may still be unread when the process exits.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.startsWith('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`node-send exited ${code} before it was ready`)));
  });
  return {
    async go() {
      child.stdin.end('go\n');
      const code = await exited;
      if (code !== 0) throw new Error(`node-send exited ${code}`);
      return JSON.parse(out.trim().split('\n').at(-1)!) as NodeSent;
    },
  };
}

/** The `filerunner` command of apps/cli, when that workspace exists (node and its arguments). */
export async function cliCommand(): Promise<string[] | null> {
  const manifest = path.join(REPO, 'apps/cli/package.json');
  if (!existsSync(manifest)) return null;
  const { bin } = JSON.parse(await readFile(manifest, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const entry = typeof bin === 'string' ? bin : bin?.filerunner;
  if (!entry) return null;
  const file = path.join(REPO, 'apps/cli', entry);
  return file.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
}

/**
 * `filerunner send` as a sender scripts it, timed as a whole process (start-up, create, upload,
 * finalise); its resume ledgers go to `stateHome`.
 */
export async function cliSend(
  command: string[],
  target: { origin: string; apiKey: string; recipient: string; stateHome: string },
  paths: string[],
) {
  const started = performance.now();
  await exec(
    process.execPath,
    [
      ...command,
      'send',
      '--contract',
      'demo',
      '--to',
      target.recipient,
      '--name',
      'CLI',
      '--quiet',
      '--no-resume',
      ...paths,
    ],
    {
      ...process.env,
      FILERUNNER_URL: target.origin,
      FILERUNNER_API_KEY: target.apiKey,
      XDG_STATE_HOME: target.stateHome,
    },
  );
  return { seconds: (performance.now() - started) / 1000 };
}
