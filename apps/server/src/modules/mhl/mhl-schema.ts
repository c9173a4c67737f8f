import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { create } from 'xmlbuilder2';
import { MHL_CHAIN_NAMESPACE, MHL_NAMESPACE } from './hash-list';

// Test support: what the ASC MHL v2 schema asks of a hash list and a chain file, checked in our
// own words (element order, required elements, value types), and the schema itself through
// libxml2's validator against the format's XSD files kept under fixtures/.

/** What the checks read of a DOM element. */
interface XmlElement {
  readonly nodeType: number;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly childNodes: ArrayLike<XmlElement>;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
}

const ELEMENT_NODE = 1;
// xs:dateTime: a date, a time to the second (fractions allowed), and an optional zone.
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;
const XXH128 = /^[0-9a-f]{32}$/;
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** The child elements of `node`, in document order. */
export function childrenOf(node: XmlElement): XmlElement[] {
  return Array.from(node.childNodes).filter((c) => c.nodeType === ELEMENT_NODE);
}

function root(xml: Uint8Array | string): XmlElement {
  const text = typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8');
  return create(text).root().node as unknown as XmlElement;
}

const names = (nodes: readonly XmlElement[]) => nodes.map((n) => n.localName);

/** One listed file as the document gives it. */
export interface ListedFile {
  readonly path: string;
  readonly size: number;
  readonly xxh128: string;
  readonly action: string;
  readonly hashdate: string;
}

/**
 * Checks a hash list against what the schema asks and answers its facts: the creation date, the
 * process, and every listed file.
 */
export function checkHashList(xml: Uint8Array | string) {
  const list = root(xml);
  // The root is a hashlist of the v2 namespace, version fixed at 2.0.
  expect(list.localName).toBe('hashlist');
  expect(list.namespaceURI).toBe(MHL_NAMESPACE);
  expect(list.getAttribute('version')).toBe('2.0');
  // Its parts in the schema's order: creatorinfo and processinfo required, hashes optional.
  const parts = childrenOf(list);
  expect(names(parts).slice(0, 2)).toEqual(['creatorinfo', 'processinfo']);
  const order = ['creatorinfo', 'processinfo', 'hashes', 'metadata', 'references'];
  expect(names(parts)).toEqual(order.filter((n) => names(parts).includes(n)));
  expect(new Set(names(parts)).size).toBe(parts.length);
  for (const part of parts) expect(part.namespaceURI).toBe(MHL_NAMESPACE);

  // creatorinfo: creationdate (a dateTime), hostname, tool (its name, a version attribute), in
  // that order; author, location, comment may follow.
  const creator = childrenOf(parts[0]!);
  expect(names(creator).slice(0, 3)).toEqual(['creationdate', 'hostname', 'tool']);
  const creationdate = creator[0]!.textContent!;
  expect(creationdate).toMatch(DATE_TIME);
  expect(creator[1]!.textContent).not.toBe('');
  expect(creator[2]!.textContent).not.toBe('');
  for (const extra of names(creator.slice(3))) {
    expect(['author', 'location', 'comment']).toContain(extra);
  }

  // processinfo: process (in-place, transfer or flatten) first; roothash and ignore optional.
  const process = childrenOf(parts[1]!);
  expect(process[0]!.localName).toBe('process');
  expect(['in-place', 'transfer', 'flatten']).toContain(process[0]!.textContent);
  expect(names(process.slice(1))).toEqual(
    ['roothash', 'ignore'].filter((n) => names(process).includes(n)),
  );

  // hashes: when present, at least one hash; each hash is a path (with an integer size) and then
  // its hashes in the schema's order of formats, each a dateTime-stamped value with an action.
  const files: ListedFile[] = [];
  const hashes = parts.find((p) => p.localName === 'hashes');
  if (hashes) {
    const entries = childrenOf(hashes);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(['hash', 'directoryhash']).toContain(entry.localName);
      const [pathNode, ...values] = childrenOf(entry);
      expect(pathNode!.localName).toBe('path');
      const size = pathNode!.getAttribute('size');
      expect(size).toMatch(/^\d+$/);
      const formats = ['c4', 'md5', 'sha1', 'xxh128', 'xxh3', 'xxh64'];
      expect(names(values)).toEqual(formats.filter((f) => names(values).includes(f)));
      const xxh = values.find((v) => v.localName === 'xxh128');
      expect(xxh, pathNode!.textContent!).toBeDefined();
      expect(xxh!.textContent).toMatch(XXH128);
      expect(['original', 'verified', 'failed']).toContain(xxh!.getAttribute('action'));
      expect(xxh!.getAttribute('hashdate')).toMatch(DATE_TIME);
      files.push({
        path: pathNode!.textContent!,
        size: Number(size),
        xxh128: xxh!.textContent!,
        action: xxh!.getAttribute('action')!,
        hashdate: xxh!.getAttribute('hashdate')!,
      });
    }
  }
  return {
    creationdate,
    hostname: creator[1]!.textContent!,
    process: process[0]!.textContent!,
    files,
  };
}

/** Checks a chain file against what its schema asks and answers its generations. */
export function checkChain(xml: Uint8Array | string) {
  const directory = root(xml);
  expect(directory.localName).toBe('ascmhldirectory');
  expect(directory.namespaceURI).toBe(MHL_CHAIN_NAMESPACE);
  const lists = childrenOf(directory);
  expect(lists.length).toBeGreaterThan(0);
  return lists.map((list) => {
    expect(list.localName).toBe('hashlist');
    expect(list.getAttribute('sequencenr')).toMatch(/^\d+$/);
    const parts = childrenOf(list);
    expect(names(parts)).toEqual(['path', 'c4']);
    return {
      sequence: Number(list.getAttribute('sequencenr')),
      path: parts[0]!.textContent!,
      c4: parts[1]!.textContent!,
    };
  });
}

/**
 * Validates a document with libxml2's `xmllint` against one of the format's XSD files
 * ('ASCMHL.xsd' for a hash list, 'ASCMHLDirectory.xsd' for a chain); answers its complaint, or
 * '' when it validates.
 */
export function xsdComplaint(xml: Uint8Array, schema: 'ASCMHL.xsd' | 'ASCMHLDirectory.xsd') {
  const dir = mkdtempSync(path.join(tmpdir(), 'mhl-xsd-'));
  try {
    const file = path.join(dir, 'document.xml');
    writeFileSync(file, xml);
    const result = spawnSync(
      'xmllint',
      ['--noout', '--nonet', '--schema', path.join(FIXTURES, schema), file],
      { encoding: 'utf8' },
    );
    if (result.error) throw result.error;
    return result.status === 0 ? '' : result.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `xxhsum -H2` (Debian's xxhash) over files under `dir`: XXH3-128 of each, by relative path. */
export function xxhsum(dir: string, paths: readonly string[]): Map<string, string> {
  const result = spawnSync('xxhsum', ['-H2', '--', ...paths], { cwd: dir, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`xxhsum failed: ${result.stderr}`);
  const sums = new Map<string, string>();
  for (const line of result.stdout.split('\n').filter(Boolean)) {
    const match = /^([0-9a-f]{32}) {2}(.*)$/.exec(line);
    if (!match) throw new Error(`xxhsum said: ${line}`);
    sums.set(match[2]!, match[1]!);
  }
  return sums;
}
