import type { ResumeStore } from '../ports';

/**
 * A `ResumeStore` in memory that keeps every write, so a test can see what a crash at any
 * moment would have left (`writes`) as well as what is kept now (`get`).
 */
export class MemoryResumeStore<Ledger> implements ResumeStore<Ledger> {
  readonly kept = new Map<string, Ledger>();
  /** Every `put` and `delete`, in order, with a copy of the value put. */
  readonly writes: { key: string; ledger: Ledger | null }[] = [];

  async get(key: string): Promise<Ledger | undefined> {
    const ledger = this.kept.get(key);
    return ledger === undefined ? undefined : copy(ledger);
  }

  async put(key: string, ledger: Ledger): Promise<void> {
    this.kept.set(key, copy(ledger));
    this.writes.push({ key, ledger: copy(ledger) });
  }

  async delete(key: string): Promise<void> {
    this.kept.delete(key);
    this.writes.push({ key, ledger: null });
  }

  async keys(): Promise<string[]> {
    return [...this.kept.keys()];
  }
}

// As a store that serialises to JSON would: nothing the engine changes later leaks in.
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
