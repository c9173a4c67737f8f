import type { Clock, ResumeStore } from '../ports';
import { LEDGER_SAVE_INTERVAL_MS } from './options';
import type { DownloadDescriptor, SinkMode } from './ports';
import type { ByteRange } from './ranges';

/**
 * What a download has put in the folder, so a run after a cut-off (network, Ctrl-C, a crash)
 * fetches only what is missing. Targets are keyed by index; a target is `done` once closed (and
 * checked), else it has the ranges written so far, recorded only when the sink keeps writes of
 * an unclosed target.
 */
export interface DownloadLedger {
  readonly version: 1;
  readonly mode: SinkMode;
  /** The object's ETag when the ledger was written: another ETag means other bytes. */
  readonly etag: string | null;
  /**
   * A run found every name of the package free in the folder (or the download's own, or the
   * person chose to replace them) before writing: a file at one of them is this download's.
   */
  readonly claimed?: true;
  readonly targets: Record<string, LedgerTarget>;
}

export interface LedgerTarget {
  ranges?: ByteRange[];
  /** Closed; with how it checked out (a failed file is not kept: it is fetched again). */
  done?: 'verified' | 'unverified';
}

/** What a kept ledger says an earlier run did in the folder: files it finished, names claimed. */
export function earlierRunOf(kept: DownloadLedger | undefined, mode: SinkMode) {
  const finished = new Set<number>();
  if (kept?.mode !== mode) return { finished, claimed: false };
  for (const [index, entry] of Object.entries(kept.targets)) {
    if (entry.done) finished.add(Number(index));
  }
  return { finished, claimed: kept.claimed === true };
}

/**
 * The key a download's ledger is kept under. Not the URL: every grant signs a new one. The
 * package's filename, size and the members' list (hashed) name the same bytes across grants.
 */
export function ledgerKeyOf(descriptor: DownloadDescriptor, mode: SinkMode): string {
  const members = descriptor.tar
    ? JSON.stringify([descriptor.tar.mtime, descriptor.tar.files])
    : JSON.stringify([descriptor.xxh128 ?? null]);
  return `download:${mode}:${descriptor.filename}:${descriptor.size}:${fnv1a64(members)}`;
}

/** FNV-1a over the string's UTF-16 code units, 64 bits as two 32-bit halves: a name, not a seal. */
function fnv1a64(text: string): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    low ^= text.charCodeAt(i);
    // Multiplying by the 64-bit FNV prime 0x100000001b3, in 32-bit halves.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x100000000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/**
 * Saves the ledger through the store at most every LEDGER_SAVE_INTERVAL_MS while it changes, and
 * at once on `flush`; a save that fails is tried again at the next change (the download goes on:
 * a lost ledger costs a refetch, not the files).
 */
export class LedgerKeeper {
  private dirty = false;
  private scheduled = false;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ResumeStore<DownloadLedger> | undefined,
    private readonly key: string,
    private readonly clock: Clock,
    private readonly snapshot: () => DownloadLedger,
    private readonly signal: AbortSignal,
  ) {}

  changed(): void {
    if (!this.store) return;
    this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    this.clock
      .sleep(LEDGER_SAVE_INTERVAL_MS, this.signal)
      .then(
        () => this.save(),
        () => undefined,
      )
      .finally(() => (this.scheduled = false));
  }

  /** Saves now what changed (the end of a run, or an abort). */
  async flush(): Promise<void> {
    await this.save();
  }

  async delete(): Promise<void> {
    this.dirty = false;
    await this.saving;
    await this.store?.delete(this.key);
  }

  private save(): Promise<void> {
    if (!this.store || !this.dirty) return this.saving;
    this.dirty = false;
    const ledger = this.snapshot();
    this.saving = this.saving
      .then(() => this.store!.put(this.key, ledger))
      .catch(() => {
        this.dirty = true;
      });
    return this.saving;
  }
}
