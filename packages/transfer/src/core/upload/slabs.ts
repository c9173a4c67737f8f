import type { ByteSource } from '../ports';
import { layoutTar, piecesForRange, type TarEntrySource, type TarLayout } from '../tar/tar-layout';
import type { UploadLimits } from '../upload-limits';
import { filesFingerprint } from './ledger';
import { packInOrder } from './packing';
import type { Slab, SlabPart } from './plan';

// The two zero blocks that end every tar.
const END_OF_ARCHIVE = 1024;

function tarEntryOf(source: ByteSource): TarEntrySource {
  // Tar keeps whole seconds; a picker that reports no time gets the epoch rather than a failure.
  const mtime = Number.isFinite(source.lastModified) ? Math.floor(source.lastModified / 1000) : 0;
  return { path: source.path, size: source.size, mtime };
}

function layoutOf(sources: readonly ByteSource[]): TarLayout {
  return layoutTar(sources.map(tarEntryOf));
}

/**
 * Packs small files into slabs: tars of at most `maxSlabFiles` files and `maxSlabBytes` bytes
 * (headers and end blocks included), in the given order. A slab's name is a digest of its
 * files, so the same files make the same slab object again after a reload.
 */
export function planSlabs(sources: readonly ByteSource[], limits: UploadLimits): Slab[] {
  // One layout of every file gives each entry's share of a tar (headers, bytes, padding).
  const all = layoutOf(sources);
  const footprint = all.entries.map(
    (entry, i) =>
      (all.entries[i + 1]?.headerOffset ?? all.size - END_OF_ARCHIVE) - entry.headerOffset,
  );
  const groups = packInOrder(
    sources.map((_, i) => i),
    (i) => footprint[i]!,
    { maxItems: limits.maxSlabFiles, maxBytes: limits.maxSlabBytes - END_OF_ARCHIVE },
  );
  return groups.map((indices) => {
    const members = indices.map((i) => sources[i]!);
    const layout = layoutOf(members);
    return {
      name: `slabs/${filesFingerprint(members)}.tar`,
      size: layout.size,
      entries: layout.entries.map((entry, i) => ({
        source: members[i]!,
        headerOffset: entry.headerOffset,
        headerLength: entry.headerLength,
        start_byte: entry.dataOffset,
        end_byte: entry.dataOffset + entry.source.size,
      })),
    };
  });
}

/**
 * The slab object's bytes as Blob parts, in order: header and padding bytes (built now, a few
 * hundred bytes per file) and slices of the picked files (never read here). Joined with
 * `new Blob(parts)` they are the tar whose ranges `slab.entries` describe.
 * @throws Error when a file changed size since the slab was planned: its recorded range would lie.
 */
export function slabParts(slab: Slab): SlabPart[] {
  return slabPartsByEntry(slab).parts;
}

/** Where each part starts in the slab object joined from `parts`, and the object's size. */
export function partOffsets(parts: readonly SlabPart[]): { offsets: number[]; size: number } {
  const offsets: number[] = [];
  let size = 0;
  for (const part of parts) {
    offsets.push(size);
    size += part instanceof Blob ? part.size : part.byteLength;
  }
  return { offsets, size };
}

/**
 * `slabParts`, and which part holds each entry's file (by index, in entry order; null for an
 * empty file, which has none).
 */
export function slabPartsByEntry(slab: Slab): {
  parts: SlabPart[];
  entryParts: (number | null)[];
} {
  const sources = slab.entries.map((entry) => entry.source);
  const layout = layoutOf(sources);
  const moved = layout.entries.some(
    (entry, i) =>
      entry.dataOffset !== slab.entries[i]!.start_byte ||
      entry.dataOffset + entry.source.size !== slab.entries[i]!.end_byte,
  );
  if (moved || layout.size !== slab.size) {
    throw new Error(`slab ${slab.name} no longer matches its files; plan the upload again`);
  }
  const parts: SlabPart[] = [];
  const entryParts: (number | null)[] = sources.map(() => null);
  for (const piece of piecesForRange(layout, { offset: 0, length: layout.size })) {
    if (piece.kind === 'bytes') {
      parts.push(piece.data);
    } else {
      entryParts[piece.entry] = parts.length;
      parts.push(sources[piece.entry]!.slice(piece.offset, piece.offset + piece.length));
    }
  }
  return { parts, entryParts };
}
