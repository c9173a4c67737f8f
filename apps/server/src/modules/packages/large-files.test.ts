import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cleanObjectName,
  sendMessages,
  type BulkResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import {
  caller,
  groupOfSenderAndReceiver,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';

// A large file is stored as segments joined by a manifest the server writes from the sender's
// list. The list is the sender's word, so the server checks it before the manifest is written.

let server: TestServer;
let fx: ContractFixture;
useFixtureServer(async (t) => {
  ({ server, fx } = t);
  await groupOfSenderAndReceiver(server, fx, 'Team');
});

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const take = { path: 'video/take.mov', bytes: Buffer.alloc(2000, 7) };
/** The name the engine gives a 1000-byte segment of take.mov: the grants write no other. */
const segmentOfTake = (index: number) =>
  `segments/${cleanObjectName(take.path, '0123456789abcdef')}/1000/${String(index).padStart(6, '0')}`;

async function uploadingPackage(): Promise<{ pkg: SenderPackage; grant: BulkResponse }> {
  const as = caller(server)(fx.sender);
  const created = await as.post('/api/packages/create/', {
    contract: fx.contract.slug,
    name: 'Large',
    recipients: [{ id: fx.receiver.user.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * 3_600_000).toISOString(),
    expected_files: 1,
    expected_size: take.bytes.length,
    intended_files: [{ filename: take.path, size: take.bytes.length }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const pkg = created.json<SenderPackage>();
  const grants = await as.post(`/api/packages/${pkg.slug}/bulk/`, {
    batches: [],
    large_file_total_size: take.bytes.length,
  });
  expect(grants.statusCode, grants.body).toBe(200);
  return { pkg, grant: grants.json() };
}

/** PUTs a segment with the prefix grant; answers its path as the engine reports it. */
async function putSegment(grant: BulkResponse, name: string, bytes: Buffer): Promise<string> {
  const t = grant.tempurl_data;
  const url = new URL(`${t.swift_endpoint}${t.swift_path}${name}${new URL(t.temp_url).search}`);
  const response = await server.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: bytes,
  });
  expect(response.statusCode, name).toBe(201);
  return `/${t.container}/${t.object_prefix}${name}`;
}

describe('a large file’s segments', () => {
  it('may not list one segment twice, however its path is written', async () => {
    const { pkg, grant } = await uploadingPackage();
    const half = take.bytes.subarray(0, 1000);
    const path = await putSegment(grant, segmentOfTake(0), half);
    const segment = { etag: md5(half), size_bytes: half.length };
    const report = (content: (Partial<typeof segment> & { path: string })[]) =>
      caller(server)(fx.sender).post(`/api/packages/${pkg.contract.slug}/${pkg.slug}/slo/`, {
        upload_filename: take.path,
        size: take.bytes.length,
        slo_content: content.map((c) => ({ ...segment, ...c })),
      });
    // Twice the first half has the file's size: without the check it was joined and recorded.
    const key = path.slice(`/${grant.tempurl_data.container}/`.length);
    for (const second of [path, key]) {
      const refused = await report([{ path }, { path: second }]);
      expect(refused.statusCode, second).toBe(400);
      expect(refused.json()).toEqual({ slo_content: [sendMessages.duplicateSegment] });
    }

    const rest = take.bytes.subarray(1000);
    const other = await putSegment(grant, segmentOfTake(1), rest);
    const joined = await report([{ path }, { path: other, etag: md5(rest), size_bytes: 1000 }]);
    expect(joined.statusCode, joined.body).toBe(200);
  });
});
