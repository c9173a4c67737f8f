import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResumeStore } from '../core/ports';

/**
 * Ledgers in one JSON file (`{ "<slug>": ledger, ... }`), for the CLI and the tests. Each write
 * goes to a temporary file that is then renamed over the old one, so a crash mid-write leaves
 * the previous ledger whole, never half of one. Writes from one store never overlap.
 */
export class JsonFileResumeStore<Ledger = unknown> implements ResumeStore<Ledger> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly filePath: string) {}

  async get(key: string): Promise<Ledger | undefined> {
    return (await this.read())[key];
  }

  put(key: string, ledger: Ledger): Promise<void> {
    return this.update((all) => {
      all[key] = ledger;
    });
  }

  delete(key: string): Promise<void> {
    return this.update((all) => {
      delete all[key];
    });
  }

  async keys(): Promise<string[]> {
    return Object.keys(await this.read());
  }

  private async read(): Promise<Record<string, Ledger>> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    return JSON.parse(text) as Record<string, Ledger>;
  }

  private update(change: (all: Record<string, Ledger>) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const all = await this.read();
      change(all);
      await mkdir(path.dirname(this.filePath), { recursive: true });
      const temporary = `${this.filePath}.${randomUUID()}.tmp`;
      await writeFile(temporary, JSON.stringify(all));
      await rename(temporary, this.filePath);
    });
    // A failed write fails its caller, not every later one.
    this.queue = next.catch(() => undefined);
    return next;
  }
}
