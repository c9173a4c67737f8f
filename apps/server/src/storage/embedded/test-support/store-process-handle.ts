import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./store-process.ts', import.meta.url));

/** A running store-process.ts child: its port and its memory as the kernel counts it. */
export interface StoreProcess {
  readonly child: ChildProcess;
  readonly origin: string;
  /** Resident memory now and at its peak (VmRSS / VmHWM), in bytes. */
  memory(): Promise<{ rss: number; peakRss: number }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startStoreProcess(root: string, tempUrlKey: string): Promise<StoreProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, root, tempUrlKey], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`store process exited with ${code}`)));
  });
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    async memory() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kib = (field: string) =>
        Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
      return { rss: kib('VmRSS'), peakRss: kib('VmHWM') };
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
