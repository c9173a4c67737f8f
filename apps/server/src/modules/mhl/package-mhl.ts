import { createHash } from 'node:crypto';
import { xxhash128 } from 'hash-wasm';
import type { PackageRow } from '../../db/rows';
import { downloadName } from '../downloads/download-name';
import { c4Id } from './c4';
import { chainXml, hashListXml, type HashedFile } from './hash-list';

// A package's ASC MHL: the hash list of its files as their sender's engine hashed them at upload,
// and the chain file that names it, as they sit in the `ascmhl` folder of the package's tar. Both
// are a pure function of the sent package (its name, send time, files) and the server's public
// address, so every request on every node gets the same bytes: ranged downloads depend on it.
// That is why no date is "now" and the sender's name (which they may change after sending) is
// not the author.

/** The folder of a tar where ASC MHL tools look for a folder's history. */
export const MHL_FOLDER = 'ascmhl';
export const MHL_CHAIN_NAME = 'ascmhl_chain.xml';

/**
 * The tool named in every list. The version is the writer's, not the product's: a list's bytes
 * must not change when servers of two releases answer the ranges of one download.
 */
const TOOL = { name: 'FileRunner', version: '1' } as const;

/** What a package's hash list needs of one of its files. */
export interface MhlSourceFile {
  readonly userPath: string;
  readonly size: number;
  readonly xxh128: string | null;
}

/** A file the server writes into the package's tar: its path there, its bytes and their xxh128. */
export interface MhlMember {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly xxh128: string;
}

export interface PackageMhl {
  /** The .mhl file's name, as ASC MHL names a generation: 0001_<folder>_<yyyy-mm-dd_HHMMSS>Z.mhl. */
  readonly name: string;
  readonly hashList: Uint8Array;
  readonly chain: Uint8Array;
  /** Files left out because no xxh128 was recorded for them. */
  readonly unhashed: number;
  /** Files left out because XML cannot carry their path (a control character in a name). */
  readonly unwritable: number;
}

// The characters XML 1.0 can carry; with the u flag a lone surrogate is none of them.
const XML_TEXT = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XXH128 = /^[0-9a-f]{32}$/;

/** The generation stamp of a file name: 2020-01-16_091500, in UTC. */
function nameStamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/**
 * The hash list and chain of a sent package's files, listed in the order given (the tar's).
 * `hostname` is the server's public host name: the same on every node.
 */
export function packageMhl(
  pkg: Pick<PackageRow, 'name' | 'sentAt'>,
  files: readonly MhlSourceFile[],
  hostname: string,
): PackageMhl {
  const listed: HashedFile[] = [];
  let unhashed = 0;
  let unwritable = 0;
  for (const file of files) {
    // Recorded by the sender's engine and never checked: a malformed one is as good as none.
    const xxh128 = file.xxh128?.toLowerCase() ?? null;
    if (xxh128 === null || !XXH128.test(xxh128)) unhashed++;
    else if (!XML_TEXT.test(file.userPath)) unwritable++;
    else listed.push({ path: file.userPath, size: file.size, xxh128 });
  }
  const folder = downloadName(pkg.name).replace(NOT_XML_CHAR, '_');
  const name = `0001_${folder}_${nameStamp(pkg.sentAt)}Z.mhl`;
  const hashList = hashListXml({
    createdAt: pkg.sentAt,
    hostname,
    tool: TOOL,
    files: listed,
    unhashed,
    unwritable,
  });
  const chain = chainXml([{ sequence: 1, name, c4: c4Id(hashList) }]);
  return { name, hashList, chain, unhashed, unwritable };
}

/**
 * The members the tar carries after the package's files: the hash list and its chain in the
 * `ascmhl` folder, with their xxh128 (the download engine checks them like any other file).
 * None when a file of the package is itself in (or is) a top-level `ascmhl` folder: the sender's
 * own history is then what the folder holds, and two members of one path would clash on disk.
 * Compared without case, as macOS and Windows file systems do.
 */
export async function mhlMembers(
  mhl: PackageMhl,
  files: readonly Pick<MhlSourceFile, 'userPath'>[],
): Promise<MhlMember[]> {
  const taken = files.some((f) => {
    const path = f.userPath.toLowerCase();
    return path === MHL_FOLDER || path.startsWith(`${MHL_FOLDER}/`);
  });
  if (taken) return [];
  return [
    {
      path: `${MHL_FOLDER}/${mhl.name}`,
      bytes: mhl.hashList,
      xxh128: await xxhash128(mhl.hashList),
    },
    {
      path: `${MHL_FOLDER}/${MHL_CHAIN_NAME}`,
      bytes: mhl.chain,
      xxh128: await xxhash128(mhl.chain),
    },
  ];
}

/** The host name a package's lists name as their maker: the server's public address's. */
export function mhlHostname(publicUrl: string): string {
  return new URL(publicUrl).hostname;
}

/** A package's hash list with the tar members it makes. */
export interface PackageMhlBuild {
  readonly mhl: PackageMhl;
  readonly members: readonly MhlMember[];
}

// Writing the list of a package of ten thousand files takes the XML writer a good part of a
// second, and a ranged download opens its grant on every request: the lists of recent packages
// are kept, up to this many bytes. The key holds everything the bytes depend on, so a list is
// never served for other inputs; a package's files do not change once it is sent.
const CACHE_BYTES = 32 * 1024 * 1024;
const cache = new Map<string, Promise<PackageMhlBuild>>();
const cachedSizes = new Map<string, number>();
let cachedBytes = 0;

/**
 * `packageMhl` and `mhlMembers` of a package, from the cache when the same package, files and
 * host name were seen lately.
 */
export function packageMhlBuild(
  pkg: Pick<PackageRow, 'id' | 'name' | 'sentAt'>,
  files: readonly MhlSourceFile[],
  hostname: string,
): Promise<PackageMhlBuild> {
  const digest = createHash('sha256');
  for (const f of files) digest.update(`${f.userPath}\0${f.size}\0${f.xxh128 ?? ''}\n`);
  const key = [pkg.id, pkg.name, pkg.sentAt.getTime(), hostname, digest.digest('hex')].join('\0');
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last, so the first key is the one to drop.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const building = (async () => {
    const mhl = packageMhl(pkg, files, hostname);
    return { mhl, members: await mhlMembers(mhl, files) };
  })();
  cache.set(key, building);
  void building.then(
    (built) => keep(key, built.mhl.hashList.byteLength + built.mhl.chain.byteLength),
    () => cache.delete(key),
  );
  return building;
}

function keep(key: string, bytes: number): void {
  if (!cache.has(key) || cachedSizes.has(key)) return;
  cachedSizes.set(key, bytes);
  cachedBytes += bytes;
  for (const oldest of cache.keys()) {
    if (cachedBytes <= CACHE_BYTES || oldest === key) break;
    cache.delete(oldest);
    cachedBytes -= cachedSizes.get(oldest) ?? 0;
    cachedSizes.delete(oldest);
  }
}
