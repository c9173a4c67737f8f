import { layoutTar, piecesForRange, type TarLayout } from '../tar/tar-layout';
import { quotedNames, unpackableMembers } from './folder-paths';
import { messageOf } from './object-requests';
import { DownloadFailedError } from './options';
import type { DownloadDescriptor, SinkMode, SinkTarget } from './ports';
import type { ByteRange } from './ranges';

/**
 * Where the bytes of a download go. A package unpacked has one target per tar member, and only
 * the members' bytes reach the sink; the `.tar` kept whole, or a single file, is one target
 * (index 0) written at the object's own offsets.
 */
export interface DownloadPlan {
  readonly mode: SinkMode;
  readonly targets: readonly SinkTarget[];
  /** The recorded xxh128 of each target's file (null when the sender recorded none). */
  readonly hashes: readonly (string | null)[];
  /** For a package: the tar's layout, so each member's place in the object is known. */
  readonly layout: TarLayout | null;
}

/** One place a run of the object's bytes is written: `length` bytes at `offset` of target `index`. */
export interface Placement {
  readonly index: number;
  readonly offset: number;
  /** Where these bytes start within the run handed to `placementsOf`. */
  readonly from: number;
  readonly length: number;
}

/**
 * The targets and layout of a download.
 * @throws DownloadFailedError before anything is written when the grant's file list cannot be
 *   laid out as a tar of its size, or (unpacking) holds names that would leave the folder,
 *   cannot exist on some platform, or name one file twice: a server may be hostile.
 */
export function planDownload(descriptor: DownloadDescriptor, mode: SinkMode): DownloadPlan {
  const { tar } = descriptor;
  if (mode === 'unpack' && tar) refuseUnpackable(tar.files.map((file) => file.path));
  let layout: TarLayout | null;
  try {
    layout = tar
      ? layoutTar(tar.files.map((file) => ({ path: file.path, size: file.size, mtime: tar.mtime })))
      : null;
  } catch (error) {
    throw new DownloadFailedError(
      'other',
      `The package's file list is broken: ${messageOf(error)}`,
    );
  }
  if (layout && layout.size !== descriptor.size) {
    throw new DownloadFailedError(
      'other',
      `The package's file list lays out a tar of ${layout.size} bytes, not ${descriptor.size}.`,
    );
  }
  if (mode === 'unpack' && tar) {
    return {
      mode,
      layout,
      targets: tar.files.map((file, index) => ({ index, path: file.path, size: file.size })),
      hashes: tar.files.map((file) => file.xxh128),
    };
  }
  return {
    mode,
    layout,
    targets: [{ index: 0, path: descriptor.filename, size: descriptor.size }],
    hashes: [tar ? null : (descriptor.xxh128 ?? null)],
  };
}

function refuseUnpackable(paths: readonly string[]): void {
  const problems = unpackableMembers(paths);
  if (!problems) return;
  const { outside, duplicates, clash } = problems;
  const reasons = [
    outside.length > 0 &&
      `names that would leave the folder or cannot exist on every system: ${quotedNames(outside)}`,
    duplicates.length > 0 && `names given twice: ${quotedNames(duplicates)}`,
    clash !== null && `a name that is both a file and a folder: ${quotedNames([clash])}`,
  ].filter((reason) => reason !== false);
  throw new DownloadFailedError(
    'name',
    `The package cannot be unpacked safely, so nothing was written: ${reasons.join('; ')}.`,
  );
}

/**
 * Where the object's bytes [offset, offset + length) belong: pieces of members when unpacking a
 * package (headers and padding are nobody's and skipped), else the same offsets of target 0.
 */
export function placementsOf(plan: DownloadPlan, offset: number, length: number): Placement[] {
  if (plan.mode === 'tar' || !plan.layout) return [{ index: 0, offset, from: 0, length }];
  const placements: Placement[] = [];
  let from = 0;
  for (const piece of piecesForRange(plan.layout, { offset, length })) {
    if (piece.kind === 'file') {
      placements.push({ index: piece.entry, offset: piece.offset, from, length: piece.length });
      from += piece.length;
    } else {
      from += piece.data.length;
    }
  }
  return placements;
}

/** Where target `index`'s byte 0 lies in the object. */
export function objectOffsetOf(plan: DownloadPlan, index: number): number {
  if (plan.mode === 'tar' || !plan.layout) return 0;
  return plan.layout.entries[index]!.dataOffset;
}

/**
 * Gaps of framing between missing ranges shorter than this are fetched along (and skipped), so
 * a package of small files is a few long ranges, not one request per file.
 */
const JOIN_GAP = 64 * 1024;

/** The ranges of the object to fetch: each target's missing bytes, joined over short gaps. */
export function rangesToFetch(
  plan: DownloadPlan,
  missingOf: (index: number) => readonly ByteRange[],
): ByteRange[] {
  const wanted: [number, number][] = [];
  for (const target of plan.targets) {
    const base = objectOffsetOf(plan, target.index);
    for (const [start, end] of missingOf(target.index)) {
      const last = wanted[wanted.length - 1];
      if (last && base + start - last[1] <= JOIN_GAP) last[1] = Math.max(last[1], base + end);
      else wanted.push([base + start, base + end]);
    }
  }
  return wanted;
}

/** A range of the object fetched by one ranged request (again from `next` after a failure). */
export interface Chunk {
  readonly number: number;
  readonly start: number;
  readonly end: number;
  /** The first byte not yet written: where a retry starts. */
  next: number;
  failures: number;
}

/** Cuts the ranges to fetch into chunks of at most `chunkSize` bytes. */
export function chunksOf(ranges: readonly ByteRange[], chunkSize: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (const [start, end] of ranges) {
    for (let at = start; at < end; at += chunkSize) {
      const stop = Math.min(end, at + chunkSize);
      chunks.push({ number: chunks.length, start: at, end: stop, next: at, failures: 0 });
    }
  }
  return chunks;
}
