import { describe, expect, it, vi } from 'vitest';
import { preflightLimits, type PreflightProbe } from '@filerunner/protocol';
import { loggedInUser, useTestServer, type Caller, type TestServer } from '../../../test/harness';
import { expectSandboxed, expectSandboxedAttachment } from '../../../test/sandboxed-bytes';
import { DEFAULT_PACKAGE_CONTAINER } from '../packages/package-storage';

// The pre-flight check's round trip against the embedded store: a probe stored with its upload
// URL, read back by range through the API by its owner only, then removed by its owner only;
// at most a few stored per person, and none left once its grant has ended.

let server: TestServer;
let as: Caller;
useTestServer((t) => ({ server, as } = t));

/** The path and query of a grant URL, as inject takes it (the store answers on this server). */
const local = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const probeBytes = () => {
  const bytes = Buffer.alloc(preflightLimits.probeBytes);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) & 255;
  return bytes;
};

type Who = { headers: Record<string, string> };

async function newProbe(who: Who): Promise<PreflightProbe> {
  const answer = await as(who).post('/api/preflight/probes/');
  expect(answer.statusCode).toBe(201);
  return answer.json();
}

const store = (probe: PreflightProbe, payload: Buffer | string = probeBytes()) =>
  server.app.inject({ method: 'PUT', url: local(probe.upload_url), payload });

const read = (who: Who, id: string, range?: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/preflight/probes/${id}/`,
    headers: { ...who.headers, ...(range ? { range } : {}) },
  });

/** The keys of the probes stored for `userId`. */
async function storedProbes(userId: number): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of server.ctx.storage.listObjects(
    DEFAULT_PACKAGE_CONTAINER,
    `preflight/${userId}/`,
  )) {
    keys.push(object.key);
  }
  return keys;
}

describe('the pre-flight probe', () => {
  it('is stored, read back by range through the API and removed, by its owner', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    expect(probe.size).toBe(preflightLimits.probeBytes);
    expect(probe.id).toMatch(/^[0-9a-f]{32}$/);
    // No link to read it straight from storage: its bytes are the caller's choice.
    expect(probe).not.toHaveProperty('download_url');

    const bytes = probeBytes();
    expect((await store(probe, bytes)).statusCode).toBe(201);

    const { rangeOffset, rangeLength } = preflightLimits;
    const ranged = await read(
      me,
      probe.id,
      `bytes=${rangeOffset}-${rangeOffset + rangeLength - 1}`,
    );
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(
      `bytes ${rangeOffset}-${rangeOffset + rangeLength - 1}/${bytes.length}`,
    );
    expect(ranged.rawPayload.equals(bytes.subarray(rangeOffset, rangeOffset + rangeLength))).toBe(
      true,
    );
    expectSandboxedAttachment(ranged.headers);
    const whole = await read(me, probe.id);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    // Another user can neither read nor remove it: their calls name their own (absent) probe.
    const other = await loggedInUser(server);
    const theirRead = await read(other, probe.id);
    expect(theirRead.statusCode).toBe(404);
    expectSandboxed(theirRead.headers);
    const theirs = await as(other).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ removed: false });
    expect((await read(me, probe.id)).statusCode).toBe(200);

    const removed = await as(me).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(removed.json()).toEqual({ removed: true });
    expect((await read(me, probe.id)).statusCode).toBe(404);
    // Removing again changes nothing.
    const again = await as(me).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(again.json()).toEqual({ removed: false });
  });

  it('is served as bytes no browser renders, whatever type it was stored with', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    const put = await server.app.inject({
      method: 'PUT',
      url: local(probe.upload_url),
      payload: '<script>alert(1)</script>',
      headers: { 'content-type': 'text/html' },
    });
    expect(put.statusCode).toBe(201);
    const answer = await read(me, probe.id);
    expect(answer.statusCode).toBe(200);
    expectSandboxedAttachment(answer.headers);
    const unsatisfiable = await read(me, probe.id, 'bytes=999999-');
    expect(unsatisfiable.statusCode).toBe(416);
    expectSandboxed(unsatisfiable.headers);
    // Its upload URL reads nothing: a PUT grant is no GET grant.
    const viaGrant = await server.app.inject({
      method: 'GET',
      url: `${local(probe.upload_url)}&inline&filename=index.html`,
    });
    expect(viaGrant.statusCode).toBe(401);
  });

  it("removes the caller's forgotten probe with their next one", async () => {
    const me = await loggedInUser(server);
    const first = await newProbe(me);
    expect((await store(first)).statusCode).toBe(201);
    await newProbe(me);
    expect((await read(me, first.id)).statusCode).toBe(404);
  });

  it('keeps at most a few per person, however many were made before storing', async () => {
    const me = await loggedInUser(server);
    const probes = await Promise.all(Array.from({ length: 40 }, () => newProbe(me)));
    const stored = await Promise.all(probes.map((probe) => store(probe)));
    const statuses = stored.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(preflightLimits.probesPerUser);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 413)).toBe(
      true,
    );
    expect(await storedProbes(me.user.id)).toHaveLength(preflightLimits.probesPerUser);
  });

  it('is swept once its grant has ended', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    expect((await store(probe)).statusCode).toBe(201);
    // Still within its grant: the sweep keeps it.
    await server.objectSweeper.sweep();
    expect(await storedProbes(me.user.id)).toHaveLength(1);
    vi.useFakeTimers({
      toFake: ['Date'],
      now: Date.now() + (preflightLimits.grantSeconds + 1) * 1000,
    });
    try {
      await server.objectSweeper.sweep();
    } finally {
      vi.useRealTimers();
    }
    expect(await storedProbes(me.user.id)).toEqual([]);
    expect((await read(me, probe.id)).statusCode).toBe(404);
  });

  it('lets a probe URL store no more than the probe', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    expect((await store(probe, Buffer.alloc(preflightLimits.probeBytes + 1))).statusCode).toBe(413);
  });

  it('is for signed-in users, and names only probes', async () => {
    expect((await as(null).post('/api/preflight/probes/')).statusCode).toBe(401);
    expect((await as(null).get(`/api/preflight/probes/${'a'.repeat(32)}/`)).statusCode).toBe(401);
    const me = await loggedInUser(server);
    for (const id of ['..%2Fpackages', 'Z'.repeat(32)]) {
      const bad = await as(me).post(`/api/preflight/probes/${id}/remove/`);
      expect(bad.statusCode).toBe(404);
      expect((await read(me, id)).statusCode).toBe(404);
    }
  });
});
