import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { c4Id } from './c4';
import { chainXml, hashListXml } from './hash-list';
import { checkChain, checkHashList, xsdComplaint } from './mhl-schema';
import { packageMhl } from './package-mhl';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const SENT = new Date('2026-03-04T05:06:07.890Z');

describe('C4 IDs', () => {
  it("gives the ID the format's own chain file records for its sample hash list", () => {
    // From the ASC MHL repository's first scenario: its ascmhl_chain.xml names this file so.
    const sample = readFileSync(path.join(FIXTURES, '0001_A002R2EC_2020-01-16_091500Z.mhl'));
    expect(c4Id(sample)).toBe(
      'c43qQABrjeiU3kteaNFtgwufQRLKxgMJEZfNSj6LcZ8fKwB568U8As9eScRsnb64NfqiAYzjNUXs81tAxPB77PUThb',
    );
  });

  it('pads a small number to 88 digits', () => {
    const id = c4Id(new Uint8Array(0));
    expect(id).toMatch(/^c4[1-9A-HJ-NP-Za-km-z]{88}$/);
  });
});

describe('a hash list', () => {
  const files = [
    { userPath: 'Zürich/naïve — 日本.txt', size: 3, xxh128: '0123456789abcdef0123456789ABCDEF' },
    { userPath: 'a & <b>/"c".txt', size: 0, xxh128: '99aa06d3014798d86001c324468d497f' },
    { userPath: 'no-hash.bin', size: 9, xxh128: null },
    { userPath: 'bad-hash.bin', size: 9, xxh128: 'not hex' },
    { userPath: 'bell\u0007.wav', size: 1, xxh128: '99aa06d3014798d86001c324468d497f' },
  ];
  const mhl = packageMhl({ name: 'Reel 1 / Grade', sentAt: SENT }, files, 'files.example.com');

  it('validates against the ASC MHL v2 schema, and its chain against the chain schema', () => {
    expect(xsdComplaint(mhl.hashList, 'ASCMHL.xsd')).toBe('');
    expect(xsdComplaint(mhl.chain, 'ASCMHLDirectory.xsd')).toBe('');
  });

  it('lists each hashed file with its size and hash, dated by the send time', () => {
    const list = checkHashList(mhl.hashList);
    expect(list.process).toBe('transfer');
    expect(list.hostname).toBe('files.example.com');
    expect(list.creationdate).toBe('2026-03-04T05:06:07+00:00');
    expect(list.files).toEqual([
      {
        path: 'Zürich/naïve — 日本.txt',
        size: 3,
        xxh128: '0123456789abcdef0123456789abcdef',
        action: 'original',
        hashdate: '2026-03-04T05:06:07+00:00',
      },
      {
        path: 'a & <b>/"c".txt',
        size: 0,
        xxh128: '99aa06d3014798d86001c324468d497f',
        action: 'original',
        hashdate: '2026-03-04T05:06:07+00:00',
      },
    ]);
  });

  it('leaves out and counts the files without a hash, and a path XML cannot carry', () => {
    expect(mhl.unhashed).toBe(2);
    expect(mhl.unwritable).toBe(1);
    const text = Buffer.from(mhl.hashList).toString('utf8');
    expect(text).toContain('<!-- 2 files not listed: no xxh128 was recorded at upload -->');
    expect(text).toContain('<!-- 1 file not listed: XML cannot carry the path -->');
  });

  it("is named as the format names a folder's first generation, and chained by its C4 ID", () => {
    expect(mhl.name).toBe('0001_Reel 1 _ Grade_2026-03-04_050607Z.mhl');
    expect(checkChain(mhl.chain)).toEqual([
      { sequence: 1, path: mhl.name, c4: c4Id(mhl.hashList) },
    ]);
  });

  it('is the same bytes every time it is made', () => {
    const again = packageMhl({ name: 'Reel 1 / Grade', sentAt: SENT }, files, 'files.example.com');
    expect(Buffer.from(again.hashList).equals(Buffer.from(mhl.hashList))).toBe(true);
    expect(Buffer.from(again.chain).equals(Buffer.from(mhl.chain))).toBe(true);
  });

  it('of no hashed file has no hashes element and still validates', () => {
    const empty = hashListXml({
      createdAt: SENT,
      hostname: 'h',
      tool: { name: 'FileRunner', version: '1' },
      files: [],
      unhashed: 1,
      unwritable: 0,
    });
    expect(checkHashList(empty).files).toEqual([]);
    expect(xsdComplaint(empty, 'ASCMHL.xsd')).toBe('');
  });

  it('fails the schema check when an element is out of order', () => {
    const text = Buffer.from(mhl.hashList).toString('utf8');
    const swapped = text.replace(
      /(<hostname>.*<\/hostname>)(\s*)(<creationdate>.*<\/creationdate>)|(<creationdate>.*<\/creationdate>)(\s*)(<hostname>.*<\/hostname>)/,
      '$6$5$4',
    );
    expect(swapped).not.toBe(text);
    expect(xsdComplaint(Buffer.from(swapped), 'ASCMHL.xsd')).toContain('hostname');
    expect(() => checkHashList(swapped)).toThrow();
  });

  it('writes a chain of one generation per link', () => {
    const chain = chainXml([
      { sequence: 1, name: 'a.mhl', c4: 'c4x' },
      { sequence: 2, name: 'b.mhl', c4: 'c4y' },
    ]);
    expect(checkChain(chain).map((l) => l.sequence)).toEqual([1, 2]);
  });
});
