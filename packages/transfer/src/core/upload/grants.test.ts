import { bulkResponse, type BulkResponse } from '@filerunner/protocol';
import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import {
  formPostObjects,
  formPostUrl,
  grantForBatch,
  headUrl,
  putUrl,
  storedObjectPath,
} from './grants';
import { planUpload } from './plan';

const unread = (path: string, size: number): ByteSource => ({
  path,
  size,
  lastModified: 0,
  slice: () => {
    throw new Error('not read');
  },
});

const formPostGrant = (batchName: string, cleaned: [string, string][]) => ({
  batch_name: batchName,
  url: 'https://store-a.example/v1/AUTH_fr/files/packages/p1/',
  path: '/v1/AUTH_fr/files/packages/p1/',
  alternative_urls: [
    'https://store-b.example/v1/AUTH_fr/files/packages/p1/?x=1',
    'https://store-c.example/v1/AUTH_fr/files/packages/p1/?x=1',
  ],
  redirect: '',
  max_file_size: 100,
  max_file_count: 10,
  expires: 1_900_000_000,
  sig: 'c2lnbmF0dXJl',
  object_prefix: 'packages/p1/',
  cleaned_files: cleaned.map(([path, clean]) => ({ path, clean_filename: clean })),
});

const segment = 'segments/cut-0011223344556677.mov/100000000/000003';

// The shape the server answers to `bulk`, checked by the protocol's own schema.
const bulk: BulkResponse = bulkResponse.parse({
  bulk_data: {
    file_data: [
      formPostGrant('batch-1', [
        ['Brief/Präsentation über.pdf', 'Prasentation_uber-0a1b2c3d4e5f.pdf'],
        ['Brief/notes.txt', 'notes-5f4e3d2c1b0a.txt'],
      ]),
    ],
  },
  tempurl_data: {
    path: '/v1/AUTH_fr/files/packages/p1/',
    container: 'files',
    temp_url:
      'https://store-a.example/v1/AUTH_fr/files/packages/p1/?temp_url_sig=head&temp_url_expires=1900000000&temp_url_prefix=packages/p1/',
    signature: 'abc',
    expires: 1_900_000_000,
    swift_endpoint: 'https://store-a.example/v1/AUTH_fr',
    swift_path: '/files/packages/p1/',
    object_prefix: 'packages/p1/',
    alternative_urls: ['https://store-b.example/v1/AUTH_fr', 'https://store-c.example/v1/AUTH_fr'],
    objects: [
      {
        name: segment,
        temp_url: `https://store-a.example/v1/AUTH_fr/files/packages/p1/${segment}?temp_url_sig=put3&temp_url_expires=1900000000`,
      },
    ],
  },
});

describe('grants', () => {
  const plan = planUpload([
    unread('Brief/notes.txt', 10),
    unread('Brief/Präsentation über.pdf', 20),
  ]);
  const batch = plan.batches[0]!;

  it('names each FormPost part by the cleaned name the bulk answer gave its file', () => {
    const grant = grantForBatch(bulk, batch);
    expect(
      formPostObjects(batch, grant).map((o) => [o.source.path, o.clean_filename, o.object_path]),
    ).toEqual([
      [
        'Brief/Präsentation über.pdf',
        'Prasentation_uber-0a1b2c3d4e5f.pdf',
        'packages/p1/Prasentation_uber-0a1b2c3d4e5f.pdf',
      ],
      ['Brief/notes.txt', 'notes-5f4e3d2c1b0a.txt', 'packages/p1/notes-5f4e3d2c1b0a.txt'],
    ]);
  });

  it('refuses a grant that does not name every file of the batch', () => {
    const partial = formPostGrant('batch-1', [['Brief/notes.txt', 'notes-1.txt']]);
    expect(() => formPostObjects(batch, partial)).toThrow(/batch-1 has no object name/);
    expect(() => grantForBatch(bulk, { ...batch, batch_name: 'batch-9' })).toThrow(/batch-9/);
  });

  it('spreads FormPosts over the grant URL and its alternatives in turn', () => {
    const grant = grantForBatch(bulk, batch);
    const hosts = [0, 1, 2, 3, 4].map((turn) => new URL(formPostUrl(grant, turn)).host);
    expect(hosts).toEqual([
      'store-a.example',
      'store-b.example',
      'store-c.example',
      'store-a.example',
      'store-b.example',
    ]);
  });

  it('PUTs each object with its own signed URL, spread over the endpoint and its alternatives', () => {
    const urls = [0, 1, 2, 3].map((turn) => putUrl(bulk.tempurl_data, segment, turn)!);
    expect(urls[0]).toBe(
      `https://store-a.example/v1/AUTH_fr/files/packages/p1/${segment}?temp_url_sig=put3&temp_url_expires=1900000000`,
    );
    expect(urls.map((url) => new URL(url).host)).toEqual([
      'store-a.example',
      'store-b.example',
      'store-c.example',
      'store-a.example',
    ]);
    expect(new Set(urls.map((url) => new URL(url).pathname + new URL(url).search)).size).toBe(1);
    expect(putUrl({ ...bulk.tempurl_data, alternative_urls: [] }, segment, 7)).toBe(urls[0]);
  });

  it('has no PUT URL for an object the grants do not list', () => {
    expect(putUrl(bulk.tempurl_data, 'segments/cut-0011223344556677.mov/100000000/000004', 0)).toBe(
      null,
    );
  });

  it('HEADs any object under the prefix with the prefix grant', () => {
    expect(headUrl(bulk.tempurl_data, 'slabs/3-abc.tar', 1)).toBe(
      'https://store-b.example/v1/AUTH_fr/files/packages/p1/slabs/3-abc.tar?temp_url_sig=head&temp_url_expires=1900000000&temp_url_prefix=packages/p1/',
    );
  });

  it('names stored objects as the reports take them: /container/prefix + name', () => {
    expect(storedObjectPath(bulk.tempurl_data, 'slabs/3-abc.tar')).toBe(
      '/files/packages/p1/slabs/3-abc.tar',
    );
  });
});
