import { describe, expect, it } from 'vitest';
import { preflightLimits, type PreflightProbe } from '@filerunner/protocol';
import { loggedInUser, useTestServer, type Caller, type TestServer } from '../../../test/harness';

// The pre-flight check's round trip against the embedded store: a probe stored with its upload
// URL, read back by range, then removed by its owner only.

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

async function newProbe(who: { headers: Record<string, string> }): Promise<PreflightProbe> {
  const answer = await as(who).post('/api/preflight/probes/');
  expect(answer.statusCode).toBe(201);
  return answer.json();
}

describe('the pre-flight probe', () => {
  it('is stored, read back by range and removed, by its owner', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    expect(probe.size).toBe(preflightLimits.probeBytes);
    expect(probe.id).toMatch(/^[0-9a-f]{32}$/);

    const bytes = probeBytes();
    const put = await server.app.inject({
      method: 'PUT',
      url: local(probe.upload_url),
      payload: bytes,
    });
    expect(put.statusCode, put.body).toBe(201);

    const { rangeOffset, rangeLength } = preflightLimits;
    const ranged = await server.app.inject({
      method: 'GET',
      url: local(probe.download_url),
      headers: { range: `bytes=${rangeOffset}-${rangeOffset + rangeLength - 1}` },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(bytes.subarray(rangeOffset, rangeOffset + rangeLength))).toBe(
      true,
    );

    // Another user cannot remove it: their remove names their own (absent) probe.
    const other = await loggedInUser(server);
    const theirs = await as(other).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ removed: false });
    const still = await server.app.inject({ method: 'HEAD', url: local(probe.download_url) });
    expect(still.statusCode).toBe(200);

    const removed = await as(me).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(removed.json()).toEqual({ removed: true });
    const gone = await server.app.inject({ method: 'GET', url: local(probe.download_url) });
    expect(gone.statusCode).toBe(404);
    // Removing again changes nothing.
    const again = await as(me).post(`/api/preflight/probes/${probe.id}/remove/`);
    expect(again.json()).toEqual({ removed: false });
  });

  it("removes the caller's forgotten probe with their next one", async () => {
    const me = await loggedInUser(server);
    const first = await newProbe(me);
    const put = await server.app.inject({
      method: 'PUT',
      url: local(first.upload_url),
      payload: probeBytes(),
    });
    expect(put.statusCode).toBe(201);
    await newProbe(me);
    const head = await server.app.inject({ method: 'HEAD', url: local(first.download_url) });
    expect(head.statusCode).toBe(404);
  });

  it('lets a probe URL store no more than the probe', async () => {
    const me = await loggedInUser(server);
    const probe = await newProbe(me);
    const put = await server.app.inject({
      method: 'PUT',
      url: local(probe.upload_url),
      payload: Buffer.alloc(preflightLimits.probeBytes + 1),
    });
    expect(put.statusCode).toBe(413);
  });

  it('is for signed-in users, and names only probes', async () => {
    expect((await as(null).post('/api/preflight/probes/')).statusCode).toBe(401);
    const me = await loggedInUser(server);
    for (const id of ['..%2Fpackages', 'Z'.repeat(32)]) {
      const bad = await as(me).post(`/api/preflight/probes/${id}/remove/`);
      expect(bad.statusCode).toBe(404);
    }
  });
});
