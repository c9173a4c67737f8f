import { utf8Length, writeUtf8 } from './utf8';

/*
 * The tar FileRunner writes: downloads stream a package as one, and slab uploads are one each.
 * Platform neutral (Uint8Array, no Buffer), so the server and the browser engine share it.
 */

/** One file of a package as it will appear in the tar. */
export interface TarEntrySource {
  /** The user's path inside the package, '/'-separated, no leading '/', may be non-ASCII and long. */
  readonly path: string;
  /** Bytes; any safe integer, including sizes past 8 GiB. */
  readonly size: number;
  /** Unix seconds, integer; the header clamps it to 1970-01-01..2242-03-16 (11 octal digits). */
  readonly mtime: number;
}

/** Where every entry of a tar stream lies; the bytes are a pure function of the source list. */
export interface TarLayout {
  /** Total bytes of the tar stream, known before the first byte. */
  readonly size: number;
  readonly entries: readonly LaidOutEntry[];
}

/**
 * One entry's place in the stream: header blocks at [headerOffset, dataOffset), the file's bytes
 * at [dataOffset, dataOffset + source.size), then zeros up to the next multiple of 512.
 */
export interface LaidOutEntry {
  readonly source: TarEntrySource;
  /** Offset of this entry's first header block (the PAX header when there is one). */
  readonly headerOffset: number;
  /** 512, or 512 + the PAX extended header's blocks. */
  readonly headerLength: number;
  /** headerOffset + headerLength. */
  readonly dataOffset: number;
}

/**
 * A contiguous part of the tar stream: literal bytes (headers, padding, end-of-archive zeros), or
 * `length` bytes of entry `entry`'s stored object starting at `offset` within that object.
 */
export type TarPiece =
  | { readonly kind: 'bytes'; readonly data: Uint8Array<ArrayBuffer> }
  | {
      readonly kind: 'file';
      readonly entry: number;
      readonly offset: number;
      readonly length: number;
    };

const BLOCK = 512;
const END_OF_ARCHIVE = 2 * BLOCK;
const NAME_FIELD = 100;
// Sizes and times are 11 octal digits in USTAR; from 8 GiB on, the size goes in a PAX record.
const OCTAL_LIMIT = 8 ** 11;
const PAX_DIR = 'PaxHeaders/';
// Padding (< 512) and the end-of-archive blocks (1024) are slices of this; never handed out.
const ZEROS = new Uint8Array(END_OF_ARCHIVE);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Lays out a tar of `sources`, in the given order, without building any header. The result holds
 * only offsets, so it is cheap for tens of thousands of files; the bytes it describes never change
 * for the same list, which is what lets a download resume with `Range` against any server node.
 * @throws RangeError on a size that is not a non-negative safe integer, a non-integer mtime, a path
 *   that is empty, absolute, has an empty, '.' or '..' segment, contains NUL or a lone surrogate,
 *   or a total size past Number.MAX_SAFE_INTEGER.
 */
export function layoutTar(sources: readonly TarEntrySource[]): TarLayout {
  const entries = new Array<LaidOutEntry>(sources.length);
  let offset = 0;
  for (let index = 0; index < sources.length; index++) {
    const source = sources[index]!;
    checkSource(source, index);
    const paxBytes = paxBodyLength(source);
    const headerLength = BLOCK + (paxBytes > 0 ? BLOCK + padded(paxBytes) : 0);
    const dataOffset = offset + headerLength;
    entries[index] = { source, headerOffset: offset, headerLength, dataOffset };
    offset = dataOffset + padded(source.size);
    if (!Number.isSafeInteger(offset)) throw new RangeError('tar would exceed 2^53 bytes');
  }
  return { size: offset + END_OF_ARCHIVE, entries };
}

/**
 * The bytes of entry `index`'s header blocks (PAX, when needed, then USTAR), exactly
 * `headerLength` long. Built on each call so a layout never holds header bytes.
 * @throws RangeError when `index` is not an entry of `layout`.
 */
export function entryHeader(layout: TarLayout, index: number): Uint8Array<ArrayBuffer> {
  const entry = layout.entries[index];
  if (!entry) throw new RangeError(`no tar entry ${index}`);
  const { path, size, mtime } = entry.source;
  const records = paxRecords(entry.source);
  const bodyLength = utf8Length(records);
  const paxLength = records === '' ? 0 : BLOCK + padded(bodyLength);
  // A layout built by hand or edited since layoutTar would shift every later byte; fail loudly.
  if (entry.headerLength !== paxLength + BLOCK) {
    throw new Error(`tar entry ${index} does not match its source; rebuild the layout`);
  }
  // Zeroed: padding and empty fields are NULs.
  const header = new Uint8Array(entry.headerLength);
  const fallback = asciiName(path);
  if (paxLength > 0) {
    // Like GNU tar's PaxHeaders/<file>: a name only a PAX-ignorant reader would ever show.
    const paxName = `${PAX_DIR}${fallback.slice(fallback.lastIndexOf('/') + 1)}`;
    writeUstar(header, 0, paxName.slice(0, NAME_FIELD), {
      size: bodyLength,
      mtime,
      typeflag: 'x',
    });
    writeUtf8(header, BLOCK, records);
  }
  writeUstar(header, paxLength, paxLength > 0 ? fallback : path, {
    // Readers take the size from the PAX record when the field cannot hold it.
    size: needsPaxSize(size) ? 0 : size,
    mtime,
    typeflag: '0',
  });
  return header;
}

/**
 * The pieces that make up tar bytes [offset, offset + length), in order, with no empty piece and
 * adjacent 'bytes' pieces merged. Finds the first entry by binary search, so the cost is
 * O(log entries + pieces returned) wherever the range lies. An empty range gives [].
 * @throws RangeError when the range is not made of non-negative integers inside [0, layout.size].
 */
export function piecesForRange(
  layout: TarLayout,
  range: { offset: number; length: number },
  /** Entry `index`'s header bytes; a caller serving the same layout often may keep them. */
  headerOf: (index: number) => Uint8Array = (index) => entryHeader(layout, index),
): TarPiece[] {
  const { offset, length } = range;
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length) ||
    offset < 0 ||
    length < 0 ||
    offset + length > layout.size
  ) {
    throw new RangeError(`range ${offset}+${length} is outside a tar of ${layout.size} bytes`);
  }
  const pieces: TarPiece[] = [];
  // Literal chunks wait here so that runs of small headers and padding become one piece; the
  // copy concat makes is what lets them be views of shared ZEROS.
  let pending: Uint8Array[] = [];
  const flush = () => {
    if (pending.length > 0) pieces.push({ kind: 'bytes', data: concat(pending) });
    pending = [];
  };
  const end = offset + length;
  const { entries } = layout;
  let at = offset;
  let index = Math.max(0, lastEntryStartingAtOrBefore(entries, at));
  while (at < end) {
    const entry = entries[index];
    if (!entry) {
      pending.push(ZEROS.subarray(0, end - at));
      break;
    }
    const dataEnd = entry.dataOffset + entry.source.size;
    const entryEnd = entry.dataOffset + padded(entry.source.size);
    if (at < entry.dataOffset) {
      const stop = Math.min(end, entry.dataOffset);
      const header = headerOf(index);
      pending.push(header.subarray(at - entry.headerOffset, stop - entry.headerOffset));
      at = stop;
    } else if (at < dataEnd) {
      const stop = Math.min(end, dataEnd);
      flush();
      pieces.push({ kind: 'file', entry: index, offset: at - entry.dataOffset, length: stop - at });
      at = stop;
    } else if (at < entryEnd) {
      const stop = Math.min(end, entryEnd);
      pending.push(ZEROS.subarray(0, stop - at));
      at = stop;
    } else {
      index++;
    }
  }
  flush();
  return pieces;
}

function lastEntryStartingAtOrBefore(entries: readonly LaidOutEntry[], offset: number): number {
  let low = 0;
  let high = entries.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.headerOffset <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

function checkSource(source: TarEntrySource, index: number): void {
  const { path, size, mtime } = source;
  const fail = (problem: string) => {
    throw new RangeError(`tar entry ${index} (${JSON.stringify(path)}): ${problem}`);
  };
  if (!Number.isSafeInteger(size) || size < 0) fail(`size must be a non-negative integer`);
  if (!Number.isInteger(mtime)) fail('mtime must be an integer');
  if (typeof path !== 'string' || path === '') fail('empty path');
  // An empty segment means a leading '/', a trailing '/' (a directory to readers) or '//'.
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      fail("path must be relative with no empty, '.' or '..' segment");
    }
  }
  // NUL ends a name for C readers; a lone surrogate cannot be written as UTF-8.
  if (path.includes('\0') || LONE_SURROGATE.test(path)) fail('path is not a valid file name');
}

/** The PAX records an entry needs, '' when USTAR holds it all; the length prefix counts itself. */
function paxRecords({ path, size }: TarEntrySource): string {
  let records = '';
  if (needsPaxPath(path)) records += paxRecord('path', path);
  if (needsPaxSize(size)) records += paxRecord('size', String(size));
  return records;
}

/** Byte length of `paxRecords(source)` without building it, for layoutTar's speed. */
function paxBodyLength({ path, size }: TarEntrySource): number {
  let length = 0;
  const pathBytes = utf8Length(path);
  if (needsPaxPath(path, pathBytes)) length += paxRecordLength('path', pathBytes);
  if (needsPaxSize(size)) length += paxRecordLength('size', String(size).length);
  return length;
}

function needsPaxPath(path: string, bytes = utf8Length(path)): boolean {
  // More bytes than characters means non-ASCII: USTAR names have no defined charset, PAX is UTF-8.
  return bytes > NAME_FIELD || bytes !== path.length;
}

function needsPaxSize(size: number): boolean {
  return size >= OCTAL_LIMIT;
}

function paxRecord(key: string, value: string): string {
  const length = paxRecordLength(key, utf8Length(value));
  return `${length} ${key}=${value}\n`;
}

function paxRecordLength(key: string, valueBytes: number): number {
  // "<length> <key>=<value>\n", where <length> counts its own digits: iterate to the fixed point.
  const rest = 1 + key.length + 1 + valueBytes + 1;
  let length = rest;
  while (length !== rest + String(length).length) length = rest + String(length).length;
  return length;
}

/**
 * The USTAR name of an entry whose real path is in PAX. Only readers that ignore PAX see it, so it
 * just has to be harmless: printable ASCII, at most 100 bytes, never a directory, '.' or '..'.
 */
function asciiName(path: string): string {
  const ascii = path.replace(/[^\x20-\x7e]/g, '_');
  const name = ascii.length > NAME_FIELD ? ascii.slice(0, NAME_FIELD - 1) : ascii;
  const cut = name.lastIndexOf('/') + 1;
  const last = name.slice(cut);
  return last === '' || last === '.' || last === '..' ? `${name.slice(0, cut)}_` : name;
}

/** The fields every header shares, copied in whole rather than formatted per entry. */
const USTAR_TEMPLATE = (() => {
  const block = new Uint8Array(BLOCK);
  writeAscii(block, 100, '0000644\u0000'); // mode
  writeAscii(block, 108, '0000000\u0000'); // uid
  writeAscii(block, 116, '0000000\u0000'); // gid
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  writeAscii(block, 257, 'ustar\u000000'); // magic and version
  // uname and gname stay empty: extracting as root would otherwise look the names up.
  writeAscii(block, 329, '0000000\u0000'); // devmajor
  writeAscii(block, 337, '0000000\u0000'); // devminor
  return block;
})();

// Every byte outside name, size, mtime, typeflag and checksum is the template's.
const TEMPLATE_SUM = USTAR_TEMPLATE.reduce((sum, byte) => sum + byte, 0);

function writeUstar(
  block: Uint8Array,
  at: number,
  name: string,
  fields: { size: number; mtime: number; typeflag: '0' | 'x' },
): void {
  block.set(USTAR_TEMPLATE, at);
  // Summing as we write saves a pass over the block; the tests re-check every checksum.
  let sum = TEMPLATE_SUM;
  for (let i = 0; i < name.length; i++) sum += block[at + i] = name.charCodeAt(i); // ASCII here
  sum += writeOctal11(block, at + 124, fields.size);
  sum += writeOctal11(block, at + 136, clampMtime(fields.mtime));
  sum += block[at + 156] = fields.typeflag.charCodeAt(0);
  // Six digits, NUL, space: the form GNU tar and libarchive write.
  writeAscii(block, at + 148, `${sum.toString(8).padStart(6, '0')}\u0000 `);
}

/**
 * Writes eleven octal digits and a NUL, returning the sum of the bytes written. Arithmetic, not
 * bit operations, as values pass 2^32.
 */
function writeOctal11(block: Uint8Array, at: number, value: number): number {
  let rest = value;
  let sum = 0;
  for (let i = at + 10; i >= at; i--) {
    sum += block[i] = 0x30 + (rest % 8);
    rest = Math.floor(rest / 8);
  }
  block[at + 11] = 0;
  return sum;
}

/**
 * A client-reported mtime before 1970 or after 2242 must not make a package undownloadable;
 * clamping keeps every header plain USTAR and the bytes still a function of the list.
 */
function clampMtime(mtime: number): number {
  return Math.min(Math.max(mtime, 0), OCTAL_LIMIT - 1);
}

function padded(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function writeAscii(block: Uint8Array, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) block[at + i] = text.charCodeAt(i);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
