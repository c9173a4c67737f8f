import { describe, expect, it } from 'vitest';
import { preflightLimits, type PreflightProbe } from '@filerunner/protocol';
import { preflightReport, storageRoundTrip, type ProbeCalls } from './preflight-check';

const probe: PreflightProbe = {
  id: 'a'.repeat(32),
  size: preflightLimits.probeBytes,
  upload_url: 'https://storage.example/v1/AUTH_x/c/preflight/1/aaa?temp_url_sig=s',
  expires: 1,
};

/** The probe calls, recording removals. */
function calls(): ProbeCalls & { removed: string[] } {
  const removed: string[] = [];
  return {
    removed,
    create: async () => probe,
    remove: async (id) => {
      removed.push(id);
      return { removed: true };
    },
  };
}

/**
 * Storage keeping what is PUT to the probe's upload URL, and the API answering ranges of it at
 * the probe's read (`status` for every GET when given); any other address is a 404.
 */
function storage(options: { putStatus?: number; getStatus?: number; corrupt?: boolean } = {}) {
  let stored = new Uint8Array();
  return (async (url: string, init?: RequestInit) => {
    if (init?.method === 'PUT' && url === probe.upload_url) {
      stored = new Uint8Array(init.body as Uint8Array);
      return new Response(null, { status: options.putStatus ?? 201 });
    }
    if (url !== `/api/preflight/probes/${probe.id}/` || init?.credentials !== 'same-origin') {
      return new Response(null, { status: 404 });
    }
    if (options.getStatus) return new Response(null, { status: options.getStatus });
    const range = /bytes=(\d+)-(\d+)/.exec(new Headers(init?.headers).get('range') ?? '')!;
    const part = stored.slice(Number(range[1]), Number(range[2]) + 1);
    if (options.corrupt) part[0] = part[0]! ^ 0xff;
    return new Response(part, { status: 206 });
  }) as typeof fetch;
}

describe('storageRoundTrip', () => {
  it('stores the probe, reads a range back, checks it and removes the probe', async () => {
    const probeCalls = calls();
    const trip = await storageRoundTrip(probeCalls, { fetch: storage() });
    expect(trip).toMatchObject({
      ok: true,
      rangeVerified: true,
      removed: true,
      host: 'storage.example',
      error: null,
    });
    expect(probeCalls.removed).toEqual([probe.id]);
  });

  it.each([
    [{ putStatus: 403 }, 'The round trip failed: storage refused the upload (HTTP 403)'],
    [{ getStatus: 200 }, 'The round trip failed: the ranged download was not answered (HTTP 200)'],
    [{ corrupt: true }, 'The round trip failed: the bytes read back are not the ones stored'],
  ])('tells where it failed (%j), and removes the probe all the same', async (how, error) => {
    const probeCalls = calls();
    const trip = await storageRoundTrip(probeCalls, { fetch: storage(how) });
    expect(trip.ok).toBe(false);
    expect(trip.error).toBe(error);
    expect(probeCalls.removed).toEqual([probe.id]);
    const report = preflightReport({
      at: new Date(0),
      user: 'a@example.com',
      browser: 'test',
      latency: [],
      names: null,
      roundTrip: trip,
    });
    expect(report).toContain(`Result: Failed (${error})`);
    expect(report).toContain('No folder chosen.');
  });

  it('says so when the probe could not be made', async () => {
    const trip = await storageRoundTrip(
      {
        create: () => Promise.reject(new Error('offline')),
        remove: async () => ({ removed: false }),
      },
      { fetch: storage() },
    );
    expect(trip).toMatchObject({ ok: false, error: 'The check could not start: offline' });
  });
});
