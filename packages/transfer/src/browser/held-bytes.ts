/** Files up to this size keep a copy of the bytes written to them, for their hash check. */
export const HELD_FILE_BYTES = 1024 * 1024;
/** Bytes held at most across the files being written; past it, a file's check reads it back. */
export const HELD_BUDGET_BYTES = 32 * 1024 * 1024;

interface Piece {
  readonly offset: number;
  readonly end: number;
  readonly blob: Blob;
}

/**
 * Copies of what was written to small files, so each file's hash check after its close takes
 * its bytes from memory instead of finding the file in the folder again and reading it back:
 * for a package of small files those lookups and reads cost the browser more than the writes.
 * Each write's bytes are copied into a Blob at once (the caller may reuse its buffer), and the
 * file's pieces are joined when its check takes them. A file larger than HELD_FILE_BYTES, or
 * one written while the budget is spent, holds nothing: its check reads it back as before.
 */
export class HeldBytes {
  private readonly files = new Map<number, { size: number; pieces: Piece[]; bytes: number }>();
  private heldBytes = 0;

  constructor(
    private readonly maxFileBytes = HELD_FILE_BYTES,
    private readonly budgetBytes = HELD_BUDGET_BYTES,
  ) {}

  /** `data` was handed to target `index` (of `size` bytes) at `offset`. */
  wrote(index: number, size: number, offset: number, data: Uint8Array): void {
    if (size > this.maxFileBytes) return;
    let file = this.files.get(index);
    if (!file) {
      // A file whose first bytes did not fit is never held: a later piece alone is of no use.
      if (offset !== 0 || this.heldBytes + size > this.budgetBytes) return;
      file = { size, pieces: [], bytes: 0 };
      this.files.set(index, file);
    }
    const bytes = data as Uint8Array<ArrayBuffer>;
    file.pieces.push({ offset, end: offset + data.byteLength, blob: new Blob([bytes]) });
    file.bytes += data.byteLength;
    this.heldBytes += data.byteLength;
  }

  /**
   * The whole file's bytes as written, and forgets them; null when some were not held (a gap,
   * or nothing at all).
   */
  take(index: number): Blob | null {
    const file = this.files.get(index);
    if (!file) return null;
    this.forget(index);
    const pieces = [...file.pieces].sort((a, b) => a.offset - b.offset);
    const parts: Blob[] = [];
    let at = 0;
    for (const piece of pieces) {
      if (piece.offset > at) return null;
      // A range written again (a retried chunk) holds the same bytes: only what is new counts.
      if (piece.end <= at) continue;
      parts.push(piece.offset === at ? piece.blob : piece.blob.slice(at - piece.offset));
      at = piece.end;
    }
    return at === file.size ? new Blob(parts) : null;
  }

  /** Drops what target `index` held (it failed, or was discarded). */
  forget(index: number): void {
    const file = this.files.get(index);
    if (!file) return;
    this.files.delete(index);
    this.heldBytes -= file.bytes;
  }

  /** Drops everything held. */
  clear(): void {
    this.files.clear();
    this.heldBytes = 0;
  }
}
