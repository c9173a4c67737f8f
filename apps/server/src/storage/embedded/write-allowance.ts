import type { ObjectRecord } from './object-file';
import type { ObjectFileStore } from './object-file-store';

/**
 * What the store may accept for one object written by grant: refused (403, with the reason),
 * or at most `maxBytes`, and, with `budget`, only while every object under the budget's prefix
 * together stays within its bytes and object count.
 */
export type WriteAdmission =
  { readonly refused: string } | { readonly maxBytes: number; readonly budget?: PrefixBudget };

/** What the objects under a prefix may hold together (manifests, the server's own, not counted). */
export interface PrefixBudget {
  readonly prefix: string;
  readonly bytes: number;
  readonly objects: number;
}

/** A write let in: its bytes are held for it until `settle` says what it stored. */
export interface AdmittedWrite {
  readonly maxBytes: number;
  /** Call once, with the stored object, or null when nothing was stored. */
  settle(stored: ObjectRecord | null): void;
}

/** A write refused before its body is read: the status and the reason to answer. */
export interface RefusedWrite {
  readonly status: 403 | 413;
  readonly refused: string;
}

/** Why a write is too large: the words the store answers with. */
export const objectTooLarge = 'the object would be larger than was declared for it';
export const budgetUsedUp = 'the objects under this prefix would hold more than was declared';

interface Tally {
  bytes: number;
  objects: number;
  heldBytes: number;
  heldObjects: number;
}

/** Tallies kept at most; idle ones beyond this are recounted from disk when next needed. */
const TALLIES_KEPT = 1024;

/**
 * Keeps each budgeted prefix's stored bytes and objects, counted once from disk and then kept up
 * to date by the writes it lets in, plus the bytes held for writes under way, so parallel writes
 * cannot together pass the budget. Counting again from disk on every write would read every
 * object's record: a package of 10,000 files would read 50 million. A tally that overcounts (a
 * delete the store did not see, two writes of one new object at once) only errs towards refusing,
 * so a write it would refuse is first checked against a fresh count.
 */
export class PrefixBudgets {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly store: ObjectFileStore) {}

  /**
   * Lets in a write of `key` that announced `length` bytes (undefined: streamed without a
   * length, cut at the allowance), or refuses it.
   */
  async admit(
    container: string,
    key: string,
    admission: WriteAdmission,
    length: number | undefined,
  ): Promise<AdmittedWrite | RefusedWrite> {
    if ('refused' in admission) return { status: 403, refused: admission.refused };
    if (length !== undefined && length > admission.maxBytes) {
      return { status: 413, refused: objectTooLarge };
    }
    const budget = admission.budget;
    if (!budget) return { maxBytes: admission.maxBytes, settle: () => undefined };

    const replaced = await this.store.statObject({ container, key });
    const replacedBytes = replaced && !replaced.manifest ? replaced.size : 0;
    const replacedObjects = replaced && !replaced.manifest ? 1 : 0;
    const id = `${container}\u0000${budget.prefix}`;
    const room = (tally: Tally) => ({
      bytes: budget.bytes - tally.bytes - tally.heldBytes + replacedBytes,
      objects: budget.objects - tally.objects - tally.heldObjects + replacedObjects,
    });
    const fits = (left: { bytes: number; objects: number }) =>
      left.objects >= 1 && left.bytes >= (length ?? 0) && (length !== undefined || left.bytes > 0);

    let tally = await this.tally(id, container, budget.prefix);
    if (!fits(room(tally))) tally = await this.recount(id, container, budget.prefix);
    const left = room(tally);
    if (!fits(left)) return { status: 413, refused: budgetUsedUp };

    const maxBytes = Math.min(admission.maxBytes, left.bytes);
    const held = length ?? maxBytes;
    tally.heldBytes += held;
    tally.heldObjects += 1;
    let settled = false;
    return {
      maxBytes,
      settle: (stored) => {
        if (settled) return;
        settled = true;
        tally.heldBytes -= held;
        tally.heldObjects -= 1;
        if (stored) {
          tally.bytes += stored.size - replacedBytes;
          tally.objects += 1 - replacedObjects;
        }
      },
    };
  }

  private async tally(id: string, container: string, prefix: string): Promise<Tally> {
    const kept = this.tallies.get(id);
    if (kept) return kept;
    return this.recount(id, container, prefix);
  }

  /** Counts the prefix's objects from disk; the bytes held for writes under way are kept. */
  private async recount(id: string, container: string, prefix: string): Promise<Tally> {
    let bytes = 0;
    let objects = 0;
    for await (const record of this.store.listObjects(container, prefix)) {
      if (record.manifest) continue;
      bytes += record.size;
      objects += 1;
    }
    const tally = this.tallies.get(id) ?? { bytes: 0, objects: 0, heldBytes: 0, heldObjects: 0 };
    tally.bytes = bytes;
    tally.objects = objects;
    this.tallies.set(id, tally);
    this.forgetIdle();
    return tally;
  }

  private forgetIdle(): void {
    for (const [id, tally] of this.tallies) {
      if (this.tallies.size <= TALLIES_KEPT) return;
      if (tally.heldObjects === 0) this.tallies.delete(id);
    }
  }
}
