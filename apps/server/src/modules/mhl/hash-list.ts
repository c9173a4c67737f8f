import { create } from 'xmlbuilder2';

// Writes ASC MHL v2 documents (the hash lists crews verify deliveries with). The schema fixes the
// order of elements, so each is written in the order its type lists them: a hash list is
// creatorinfo, processinfo, then hashes; creatorinfo is creationdate, hostname, tool; a file's
// hash is its path (with its size) and then its hashes. Dates are the schema's xs:dateTime, in
// UTC with an explicit offset as the format's own tools write them.

export const MHL_NAMESPACE = 'urn:ASC:MHL:v2.0';
export const MHL_CHAIN_NAMESPACE = 'urn:ASC:MHL:DIRECTORY:v2.0';

/** One file of a hash list: its path relative to the list's root folder. */
export interface HashedFile {
  readonly path: string;
  readonly size: number;
  /** XXH3-128 with seed 0 as 32 lowercase hex digits. */
  readonly xxh128: string;
}

export interface HashListInput {
  /** When the list was made; also the date of every hash in it. */
  readonly createdAt: Date;
  readonly hostname: string;
  readonly tool: { readonly name: string; readonly version: string };
  /** The files, in the order they are listed. */
  readonly files: readonly HashedFile[];
  /**
   * Files of the folder left out, said in a comment since the schema has no place for them:
   * without a hash, and with a path XML cannot carry.
   */
  readonly unhashed: number;
  readonly unwritable: number;
}

/** An xs:dateTime in UTC to the second, as '2020-01-16T09:15:00+00:00'. */
export function mhlDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

const fileCount = (n: number) => (n === 1 ? '1 file' : `${n} files`);

/** A hash list of `files` by a `transfer` process: the bytes of an .mhl file. */
export function hashListXml(input: HashListInput): Uint8Array {
  const date = mhlDate(input.createdAt);
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const list = doc.ele(MHL_NAMESPACE, 'hashlist', { version: '2.0' });
  if (input.unhashed > 0) {
    list.com(` ${fileCount(input.unhashed)} not listed: no xxh128 was recorded at upload `);
  }
  if (input.unwritable > 0) {
    list.com(` ${fileCount(input.unwritable)} not listed: XML cannot carry the path `);
  }
  const creator = list.ele('creatorinfo');
  creator.ele('creationdate').txt(date);
  creator.ele('hostname').txt(input.hostname);
  creator.ele('tool', { version: input.tool.version }).txt(input.tool.name);
  list.ele('processinfo').ele('process').txt('transfer');
  // The schema allows no empty <hashes>: a list of no files leaves it out.
  if (input.files.length > 0) {
    const hashes = list.ele('hashes');
    for (const file of input.files) {
      const hash = hashes.ele('hash');
      hash.ele('path', { size: String(file.size) }).txt(file.path);
      hash.ele('xxh128', { action: 'original', hashdate: date }).txt(file.xxh128);
    }
  }
  return Buffer.from(doc.end({ prettyPrint: true, indent: '  ' }) + '\n', 'utf8');
}

/** One generation of a folder's history, as its chain file lists it. */
export interface ChainLink {
  readonly sequence: number;
  /** The .mhl file's name inside the ascmhl folder. */
  readonly name: string;
  /** The .mhl file's C4 ID. */
  readonly c4: string;
}

/** The bytes of an ascmhl_chain.xml listing `links`. */
export function chainXml(links: readonly ChainLink[]): Uint8Array {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const directory = doc.ele(MHL_CHAIN_NAMESPACE, 'ascmhldirectory');
  for (const link of links) {
    const list = directory.ele('hashlist', { sequencenr: String(link.sequence) });
    list.ele('path').txt(link.name);
    list.ele('c4').txt(link.c4);
  }
  return Buffer.from(doc.end({ prettyPrint: true, indent: '  ' }) + '\n', 'utf8');
}
