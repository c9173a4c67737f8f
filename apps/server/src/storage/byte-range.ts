import type { ByteRange } from './storage-driver';

/** How a Range header applies to a representation of a given length. */
export type RangeDecision =
  | { readonly kind: 'whole' }
  | { readonly kind: 'partial'; readonly range: ByteRange }
  | { readonly kind: 'unsatisfiable' };

const SPEC = /^(\d*)-(\d*)$/;

/**
 * Applies a `Range: bytes=...` header the way Swift's swob.Range does: syntactically invalid
 * headers are ignored (whole body), `a-b` is clamped to the length, `-n` is the last n bytes
 * (the whole body when n exceeds it), and a start at or past the end is unsatisfiable (416).
 * Only single ranges are served; a multi-range header gets the whole body, which RFC 9110
 * allows and which the transfer engine never asks for.
 */
export function decideRange(header: string | undefined, length: number): RangeDecision {
  if (!header) return { kind: 'whole' };
  const value = header.replace(/ /g, '');
  if (!value.toLowerCase().startsWith('bytes=')) return { kind: 'whole' };
  const specs = value.slice(6).split(',');
  if (specs.length !== 1) return { kind: 'whole' };
  const match = SPEC.exec(specs[0] ?? '');
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    const take = Math.min(suffix, length);
    if (take === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { offset: length - take, length: take } };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= length) return { kind: 'unsatisfiable' };
  const end = last === '' ? length - 1 : Math.min(Number(last), length - 1);
  return { kind: 'partial', range: { offset: start, length: end - start + 1 } };
}

/** The Content-Range value of a 206 response. */
export function contentRange(range: ByteRange, totalLength: number): string {
  return `bytes ${range.offset}-${range.offset + range.length - 1}/${totalLength}`;
}

/** Checks a caller's range against an object length; returns it clamped or null if empty. */
export function clampRange(range: ByteRange, length: number): ByteRange | null {
  if (!Number.isSafeInteger(range.offset) || !Number.isSafeInteger(range.length)) return null;
  if (range.offset < 0 || range.length <= 0 || range.offset >= length) return null;
  return { offset: range.offset, length: Math.min(range.length, length - range.offset) };
}

/** The Range header that asks for exactly this range. */
export function rangeHeader(range: ByteRange): string {
  return `bytes=${range.offset}-${range.offset + range.length - 1}`;
}
