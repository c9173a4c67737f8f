import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type DeliveryReceipt,
  type ReceiptChallenge,
  type ReceiptRequest,
} from '@filerunner/protocol';
import { layoutTar } from '../tar/tar-layout';
import { ReceiptProofError, requestReceipt, type ReceiptCalls, type WrittenBytes } from './receipt';
import type { DownloadDescriptor, DownloadOutcome, SinkMode } from './ports';

const files = [
  { path: 'reel/A001.mov', bytes: Buffer.alloc(3000, 7).fill(9, 1000) },
  { path: 'reel/notes.txt', bytes: Buffer.from('twelve bytes') },
];
const descriptor: DownloadDescriptor = {
  downloadUrl: 'http://127.0.0.1:1/api/downloads/t/Reel.tar',
  filename: 'Reel.tar',
  size: layoutTar(files.map((f) => ({ path: f.path, size: f.bytes.length, mtime: 1 }))).size,
  tar: {
    mtime: 1,
    files: files.map((f) => ({ path: f.path, size: f.bytes.length, xxh128: null })),
  },
};
const outcome: DownloadOutcome = {
  verifiedFiles: 1,
  unverifiedFiles: ['reel/notes.txt'],
  failedFiles: [],
  fetchedBytes: 10,
};
const issued = { id: 1, receipt: 'h.p.s' } as DeliveryReceipt;
const nonce = 'ab'.repeat(32);
const sha256 = async (parts: readonly Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
/** What the server expects for `bytes`: SHA-256 of the nonce's bytes, then the range's. */
const expected = (bytes: Uint8Array) =>
  createHash('sha256').update(Buffer.from(nonce, 'hex')).update(bytes).digest('hex');

/** The folder as the sink left it: each file unpacked, or the `.tar` with every member in place. */
function writtenFolder(mode: SinkMode): WrittenBytes & { reads: string[] } {
  const onDisk = new Map<string, Uint8Array>();
  if (mode === 'unpack') for (const f of files) onDisk.set(f.path, f.bytes);
  else {
    const tar = Buffer.alloc(descriptor.size);
    const layout = layoutTar(files.map((f) => ({ path: f.path, size: f.bytes.length, mtime: 1 })));
    files.forEach((f, i) => f.bytes.copy(tar, layout.entries[i]!.dataOffset));
    onDisk.set('Reel.tar', tar);
  }
  const reads: string[] = [];
  return {
    reads,
    async read(target, offset, length) {
      reads.push(`${target.path}@${offset}`);
      const bytes = onDisk.get(target.path);
      if (!bytes) throw new Error(`${target.path}: no such file`);
      return bytes.subarray(offset, offset + length);
    },
  };
}

/** A server that challenges `ranges` and records what it is asked; `refuse` answers its issue. */
function server(
  ranges: ReceiptChallenge['ranges'],
  refuse: (attempt: number) => unknown = () => null,
) {
  const requests: ReceiptRequest[] = [];
  let challenges = 0;
  const calls: ReceiptCalls = {
    challenge: async () => ({
      challenge: `c${++challenges}`,
      nonce,
      ranges,
      expires_at: '2030-01-01T00:00:00.000Z',
    }),
    issue: async (request) => {
      requests.push(request);
      const refusal = refuse(requests.length);
      if (refusal) throw refusal;
      return issued;
    },
  };
  return { calls, requests, challenges: () => challenges };
}

const ranges = [
  { path: 'reel/A001.mov', offset: 900, length: 200 },
  { path: 'reel/notes.txt', offset: 0, length: 12 },
];

describe('requestReceipt', () => {
  for (const mode of ['unpack', 'tar'] as const) {
    it(`answers each range from the files written (${mode}), with the engine's report`, async () => {
      const { calls, requests } = server(ranges);
      const written = writtenFolder(mode);
      const got = await requestReceipt({ calls, descriptor, mode, written, sha256 }, outcome);
      expect(got).toBe(issued);
      expect(requests).toEqual([
        {
          challenge: 'c1',
          answers: [expected(files[0]!.bytes.subarray(900, 1100)), expected(files[1]!.bytes)],
          verified: 1,
          unverified: ['reel/notes.txt'],
          failed: [],
        },
      ]);
      if (mode === 'tar') expect(written.reads.every((r) => r.startsWith('Reel.tar@'))).toBe(true);
    });
  }

  it('asks a new challenge once when the server no longer knows the first', async () => {
    const spent = new ApiError('HTTP_ERROR', 409, {}, 'unknown challenge');
    const again = server(ranges, (attempt) => (attempt === 1 ? spent : null));
    const proof = { descriptor, mode: 'unpack' as const, written: writtenFolder('unpack'), sha256 };
    expect(await requestReceipt({ ...proof, calls: again.calls }, outcome)).toBe(issued);
    expect(again.requests.map((r) => r.challenge)).toEqual(['c1', 'c2']);

    const wrong = new ApiError('HTTP_ERROR', 403, {}, 'wrong answers');
    const refused = server(ranges, () => wrong);
    await expect(requestReceipt({ ...proof, calls: refused.calls }, outcome)).rejects.toBe(wrong);
    expect(refused.challenges()).toBe(1);
  });

  it('asks nothing when a sampled file cannot be read back', async () => {
    const { calls, requests } = server([
      ...ranges,
      { path: 'reel/gone.mov', offset: 0, length: 5 },
    ]);
    const written = writtenFolder('unpack');
    await expect(
      requestReceipt({ calls, descriptor, mode: 'unpack', written, sha256 }, outcome),
    ).rejects.toBeInstanceOf(ReceiptProofError);
    const short = server([{ path: 'reel/notes.txt', offset: 4, length: 12 }]);
    await expect(
      requestReceipt({ calls: short.calls, descriptor, mode: 'unpack', written, sha256 }, outcome),
    ).rejects.toThrow('reel/notes.txt is shorter than it was sent');
    expect([...requests, ...short.requests]).toEqual([]);
  });
});
