import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  RECEIPT_CHALLENGE_RANGES,
  RECEIPT_RANGE_BYTES,
  type ReceiptRange,
} from '@filerunner/protocol';
import type { PackageRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import {
  PlacedReadError,
  readPlaced,
  StorageError,
  type PlacedRead,
  type StorageDriver,
} from '../../storage';
import { downloadMessages } from '../downloads/download-messages';
import { fileParts, type ServableFile } from '../downloads/package-bytes';

/** A whole number in [0, below), from the system's secure random source. */
export type RandomBelow = (below: number) => number;

/** randomInt's exclusive bound may not pass 2^48; larger packages are scaled into it. */
const RANDOM_INT_LIMIT = 2 ** 48 - 1;

export const secureRandomBelow: RandomBelow = (below) =>
  below <= RANDOM_INT_LIMIT
    ? randomInt(below)
    : Math.floor((randomInt(RANDOM_INT_LIMIT) / RANDOM_INT_LIMIT) * below);

/**
 * A random sample of ranges across the package's files for a receipt challenge: at most
 * RECEIPT_CHALLENGE_RANGES ranges of at most RECEIPT_RANGE_BYTES each, so answering costs the
 * server about a megabyte of reads whatever the package's size. Half the picks choose a file
 * uniformly (every file with bytes is eligible, however small), half choose a byte of the
 * package uniformly (the bulk of a large package is where its bytes are). Empty files hold no
 * bytes to prove. In the files' order, without repeats.
 */
export function sampleRanges(
  files: readonly Pick<ServableFile, 'userPath' | 'size'>[],
  random: RandomBelow = secureRandomBelow,
): ReceiptRange[] {
  const withBytes = files.filter((f) => f.size > 0);
  if (withBytes.length === 0) return [];
  const ends: number[] = [];
  let total = 0;
  for (const file of withBytes) ends.push((total += file.size));
  const picked = new Map<string, { index: number; range: ReceiptRange }>();
  for (let pick = 0; pick < RECEIPT_CHALLENGE_RANGES; pick++) {
    const index = pick % 2 === 0 ? random(withBytes.length) : fileHolding(ends, random(total));
    const file = withBytes[index]!;
    const length = Math.min(RECEIPT_RANGE_BYTES, file.size);
    const offset = random(file.size - length + 1);
    picked.set(`${index}:${offset}`, { index, range: { path: file.userPath, offset, length } });
  }
  return [...picked.values()]
    .sort((a, b) => a.index - b.index || a.range.offset - b.range.offset)
    .map((p) => p.range);
}

/** The index of the file holding byte `at` of the files laid end to end (`ends` ascending). */
function fileHolding(ends: readonly number[], at: number): number {
  let low = 0;
  let high = ends.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ends[middle]! > at) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** One range's answer: SHA-256 over the nonce's bytes, then the range's bytes, as hex. */
export function rangeAnswer(nonce: string, bytes: Uint8Array): string {
  return createHash('sha256').update(Buffer.from(nonce, 'hex')).update(bytes).digest('hex');
}

/**
 * Whether every answer is the one the stored bytes give. The ranges are read from storage into
 * one buffer (at most RECEIPT_CHALLENGE_RANGES x RECEIPT_RANGE_BYTES) on the condition that each
 * object is still the one recorded; hashing a megabyte needs no worker. A range whose file is no
 * longer in the package cannot be answered; one whose object changed since is a 409 naming it.
 */
export async function answersMatch(
  storage: StorageDriver,
  pkg: PackageRow,
  files: readonly ServableFile[],
  challenge: { nonce: string; ranges: readonly ReceiptRange[] },
  answers: readonly string[],
): Promise<boolean> {
  if (answers.length !== challenge.ranges.length) return false;
  const byPath = new Map(files.map((f) => [f.userPath, f]));
  const reads: PlacedRead[] = [];
  let at = 0;
  for (const range of challenge.ranges) {
    const file = byPath.get(range.path);
    if (!file || range.offset + range.length > file.size) return false;
    for (const part of fileParts(pkg, file, range)) {
      if (part.kind !== 'object') continue;
      const options = part.etag ? { ifMatch: part.etag } : {};
      reads.push({ location: part.location, range: part.range, options, at });
    }
    at += range.length;
  }
  const view = new Uint8Array(
    await readPlaced(storage, new ArrayBuffer(at), reads).catch((error: unknown) => {
      const changed =
        error instanceof PlacedReadError &&
        error.cause instanceof StorageError &&
        error.cause.code === 'precondition_failed';
      if (!changed) throw error;
      const path = challenge.ranges[error.index]!.path;
      throw ApiError.detail(409, 'conflict', downloadMessages.fileChanged(path));
    }),
  );
  let from = 0;
  return challenge.ranges.every((range, i) => {
    const expected = Buffer.from(
      rangeAnswer(challenge.nonce, view.subarray(from, (from += range.length))),
      'hex',
    );
    const given = Buffer.from(answers[i]!, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
