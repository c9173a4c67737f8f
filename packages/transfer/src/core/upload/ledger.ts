import { sourceIdentity, type ByteSource, type Clock, type ResumeStore } from '../ports';

/**
 * What of an upload is already stored and reported, kept in the resume store under the
 * package's slug so that a later run (after a reload, a crash or Ctrl-C) sends only what is
 * missing. Plain JSON: the browser keeps it in IndexedDB, the CLI in a file.
 *
 * Names are the plan's (batch names, slab and segment object names under the package prefix),
 * which come out the same for the same files, so a new plan of the same files lines up with it.
 */
export interface UploadLedger {
  version: 1;
  /** The package being filled, as a later run names it (`UploadOptions.package`). */
  package: { slug: string; name: string; contract: { slug: string } };
  /** Which files the upload is of (see `filesFingerprint`), so a ledger is never applied to others. */
  fingerprint: string;
  /**
   * FormPost batches stored, by batch name: each file's object name under the prefix, until the
   * batch is reported (then only that it was).
   */
  batches: Record<string, { objects: Record<string, string>; reported: boolean }>;
  /** Slab objects stored, by object name. */
  slabs: Record<string, { etag: string; reported: boolean }>;
  /** Large files, by user path: segments stored (by index) and whether the manifest is made. */
  largeFiles: Record<
    string,
    { segments: Record<string, { etag: string; size: number }>; reported: boolean }
  >;
  /** xxh128 of files hashed and not reported yet, by user path. */
  hashes: Record<string, string>;
  /** Set once the package is sent; the ledger is deleted then, this guards a failed delete. */
  finalised: boolean;
}

export function emptyLedger(
  pkg: UploadLedger['package'],
  sources: readonly ByteSource[],
): UploadLedger {
  return {
    version: 1,
    package: pkg,
    fingerprint: filesFingerprint(sources),
    batches: {},
    slabs: {},
    largeFiles: {},
    hashes: {},
    finalised: false,
  };
}

/**
 * A short digest of the files' identities (path, size, last modified), in any order: equal for
 * the same files picked again, different as soon as one file changed or is missing. A cheap
 * multiplicative hash, because it needs no platform crypto and only has to tell picks apart,
 * not resist an attacker.
 */
export function filesFingerprint(sources: readonly ByteSource[]): string {
  const identities = sources.map(sourceIdentity).sort();
  // Two 32-bit FNV-style runs with different constants make a 64-bit digest without BigInt's cost.
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  const add = (code: number) => {
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code, 0x5bd1e995) >>> 0;
  };
  for (const identity of identities) {
    for (let i = 0; i < identity.length; i++) add(identity.charCodeAt(i));
    add(0x0a);
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${identities.length}-${hex(high)}${hex(low)}`;
}

/** Whether a stored ledger belongs to this package and these files. */
export function ledgerFits(
  ledger: unknown,
  slug: string,
  sources: readonly ByteSource[],
): ledger is UploadLedger {
  if (typeof ledger !== 'object' || ledger === null) return false;
  const candidate = ledger as Partial<UploadLedger>;
  return (
    candidate.version === 1 &&
    candidate.package?.slug === slug &&
    candidate.fingerprint === filesFingerprint(sources)
  );
}

/**
 * Forgets what the ledger holds for files the server now has on record (their hashes): a later
 * run skips reported objects, so it never asks for them again. Every write copies the whole
 * ledger, so it stays the size of the work under way instead of growing with every file sent.
 */
export function forgetReported(ledger: UploadLedger, files: readonly ByteSource[]): void {
  for (const file of files) delete ledger.hashes[file.path];
}

/**
 * After a write, the next waits this many times as long as the write took (with a clock): each
 * write copies the whole ledger, which grows with the objects sent, so with thousands of small
 * files done one after the other, writes back to back would take most of the page's time.
 */
const WRITE_PAUSE_FACTOR = 3;

/**
 * Writes the ledger to the resume store as work completes. Writes never overlap and never pile
 * up: a change made while a write runs is written once after it, with every change since (and,
 * given a clock, after a pause that keeps writing to a quarter of the time).
 */
export class LedgerWriter {
  private writing: Promise<void> | null = null;
  private dirty = false;
  private removed = false;

  constructor(
    readonly ledger: UploadLedger,
    private readonly store: ResumeStore<UploadLedger> | undefined,
    private readonly clock?: Clock,
  ) {}

  /** Applies a change and schedules a write; resolves once the change is in the store. */
  change(apply: (ledger: UploadLedger) => void): Promise<void> {
    apply(this.ledger);
    return this.flush();
  }

  /**
   * Applies a change that only spares a later run some work (an object reported) and writes it
   * with the next write, without anyone waiting for it: a run stopped before it is written
   * reports that object again, and the server takes the same report twice alike.
   */
  note(apply: (ledger: UploadLedger) => void): void {
    apply(this.ledger);
    // A write that fails is tried again with the next change; the upload does not wait on it.
    this.flush().catch(() => undefined);
  }

  flush(): Promise<void> {
    if (!this.store || this.removed) return Promise.resolve();
    this.dirty = true;
    if (!this.writing) this.writing = this.drain();
    return this.writing;
  }

  /** Resolves once no write is under way. */
  async idle(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
  }

  /** Forgets the ledger once the package is sent. */
  async remove(): Promise<void> {
    // A job that finishes after this (its report answered as the upload was cancelled) must not
    // write the ledger back, or the cancelled upload would be offered for resuming.
    this.removed = true;
    await this.writing;
    await this.store?.delete(this.ledger.package.slug);
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const started = this.clock?.now() ?? 0;
        // A snapshot, so a change during the write is not half in it.
        await this.store!.put(
          this.ledger.package.slug,
          JSON.parse(JSON.stringify(this.ledger)) as UploadLedger,
        );
        if (this.dirty && this.clock) {
          await this.clock.sleep(WRITE_PAUSE_FACTOR * (this.clock.now() - started));
        }
      }
    } finally {
      this.writing = null;
    }
  }
}
