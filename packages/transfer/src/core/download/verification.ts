import type { ByteSource, FileHasher } from '../ports';
import { EMPTY_XXH128 } from './options';
import type { DownloadPlan } from './plan';
import type { DownloadDescriptor } from './ports';

/**
 * One file's check once its bytes are closed in the sink: the bytes at [start, end) of target
 * `index` (the file itself when unpacked, a member's place in a `.tar` kept whole) against the
 * hash the sender's engine recorded.
 */
export interface FileCheck {
  readonly path: string;
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly expected: string | null;
}

/** The checks to run when target `index` closes. */
export function checksOf(
  plan: DownloadPlan,
  descriptor: DownloadDescriptor,
  index: number,
): FileCheck[] {
  const target = plan.targets[index]!;
  if (plan.mode === 'unpack' || !plan.layout || !descriptor.tar) {
    return [
      { path: target.path, index, start: 0, end: target.size, expected: plan.hashes[index]! },
    ];
  }
  // The `.tar` kept whole: each member is checked where it lies in it.
  return plan.layout.entries.map((entry, member) => ({
    path: entry.source.path,
    index,
    start: entry.dataOffset,
    end: entry.dataOffset + entry.source.size,
    expected: descriptor.tar!.files[member]!.xxh128,
  }));
}

export type CheckResult = 'verified' | 'unverified' | 'mismatch';

/**
 * Compares the checked bytes' hash with the sender's: the one the sink took as it wrote them
 * (`written`, when it has it), else hashed from the bytes read lazily from the sink's Blob.
 */
export async function runCheck(
  check: FileCheck,
  bytes: () => Promise<Blob>,
  hasher: FileHasher | undefined,
  signal: AbortSignal,
  written?: () => Promise<string | null>,
): Promise<CheckResult> {
  if (check.expected === null) return 'unverified';
  const size = check.end - check.start;
  if (size === 0) return check.expected === EMPTY_XXH128 ? 'verified' : 'mismatch';
  if (!hasher) return 'unverified';
  const taken = await written?.();
  if (taken) return taken === check.expected ? 'verified' : 'mismatch';
  const blob = await bytes();
  const source: ByteSource = {
    path: check.path,
    size,
    lastModified: 0,
    slice: (start, end) => blob.slice(check.start + start, check.start + end),
  };
  const actual = await hasher.xxh128(source, signal);
  return actual === check.expected ? 'verified' : 'mismatch';
}

/**
 * Runs file checks a few at a time beside the chunks still arriving (hashing reads the file
 * again; two at once keep the disk busy without starving the writes).
 */
export class CheckQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly atOnce: number,
    /** A check that throws (the file could not be read) stops the run. */
    private readonly onError: (error: unknown) => void,
  ) {}

  add(work: () => Promise<void>): void {
    this.waiting.push(work);
    this.next();
  }

  get busy(): boolean {
    return this.running > 0 || this.waiting.length > 0;
  }

  /** Resolves when every check added has finished. */
  async drained(): Promise<void> {
    if (this.busy) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private next(): void {
    while (this.running < this.atOnce && this.waiting.length > 0) {
      const work = this.waiting.shift()!;
      this.running++;
      void work()
        .catch(this.onError)
        .finally(() => {
          this.running--;
          this.next();
          if (!this.busy) for (const idle of this.idle.splice(0)) idle();
        });
    }
  }
}
