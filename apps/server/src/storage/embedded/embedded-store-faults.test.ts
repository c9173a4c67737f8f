import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { EmbeddedDriver } from './embedded-driver';
import type { StoreFaults } from './faults';
import { ORIGIN, useStoreApp } from './test-support/store-app';

const MiB = 1024 * 1024;

describe('faults injected by the embedded store, as a client sees them', () => {
  let app: FastifyInstance;
  let driver: EmbeddedDriver;
  let faults: StoreFaults;
  useStoreApp((store) => ({ app, driver, faults } = store), {
    dirPrefix: 'embedded-faults-',
    faults: true,
  });

  const expires = () => Math.floor(Date.now() / 1000) + 600;
  const url = (method: 'GET' | 'PUT', key: string) =>
    driver.signTempUrl({ method, container: 'c', key, expires: expires() }).url;
  const put = (key: string, body: Uint8Array | string) =>
    fetch(url('PUT', key), { method: 'PUT', body, headers: { origin: ORIGIN } });
  const stored = async (key: string) => (await driver.head({ container: 'c', key })) !== null;

  it('answers a share of requests 503 with CORS headers, and stores nothing for them', async () => {
    faults.set({ fail: 1 });
    const refused = await put('refused', randomBytes(MiB));
    expect(refused.status).toBe(503);
    // A browser can read the status only if the answer carries CORS headers.
    expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await refused.text()).toContain('STORE_FAULTS');
    expect(await stored('refused')).toBe(false);

    const form = new FormData();
    form.append('file1', new Blob(['small']), 'small.txt');
    const formPost = await fetch(`${driver.accountUrl}/c/batch/`, { method: 'POST', body: form });
    expect(formPost.status).toBe(503);

    faults.set(null);
    expect((await put('kept', 'bytes')).status).toBe(201);
    faults.set({ fail: 1 });
    expect((await fetch(url('GET', 'kept'))).status).toBe(503);
    expect((await fetch(url('GET', 'kept'), { method: 'HEAD' })).status).toBe(503);
  });

  it('fails exactly the requests the even spread picks, so retries are countable', async () => {
    faults.set({ fail: 0.5 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await put(`n${i}`, 'x')).status);
    expect(statuses).toEqual([201, 503, 201, 503, 201, 503]);
    expect(faults.counts()).toEqual({ requests: 6, failed: 3, dropped: 0, stalled: 0 });
  });

  it('cuts an upload mid-body: the client gets a network error and nothing is stored', async () => {
    faults.set({ drop: 1 });
    await expect(put('cut', randomBytes(4 * MiB))).rejects.toThrow(TypeError);
    expect(await stored('cut')).toBe(false);
    expect(faults.counts()).toEqual({ requests: 1, failed: 0, dropped: 1, stalled: 0 });
    // The store itself is unharmed: the next upload on a fresh connection lands.
    faults.set(null);
    expect((await put('after', randomBytes(MiB))).status).toBe(201);
  });

  it('cuts a download after half its body, having promised all of it', async () => {
    const bytes = randomBytes(2 * MiB);
    expect((await put('whole', bytes)).status).toBe(201);
    faults.set({ drop: 1 });
    const response = await fetch(url('GET', 'whole'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(2 * MiB));
    const reader = response.body!.getReader();
    const received: Buffer[] = [];
    let error: unknown = null;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
      }
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    const got = Buffer.concat(received);
    expect(got.length).toBe(MiB);
    expect(got.equals(bytes.subarray(0, MiB))).toBe(true);

    await expect(fetch(url('GET', 'whole'), { method: 'HEAD' })).rejects.toThrow(TypeError);
    faults.set(null);
    const again = await fetch(url('GET', 'whole'));
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('stalls a download after half its body, until the client leaves', async () => {
    const bytes = randomBytes(2 * MiB);
    expect((await put('held', bytes)).status).toBe(201);
    faults.set({ stall: 1 });
    const leave = new AbortController();
    const response = await fetch(url('GET', 'held'), { signal: leave.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(2 * MiB));
    const reader = response.body!.getReader();
    const received: Buffer[] = [];
    let size = 0;
    while (size < MiB) {
      const { done, value } = await reader.read();
      if (done) break;
      received.push(Buffer.from(value));
      size += value.length;
    }
    expect(Buffer.concat(received).equals(bytes.subarray(0, MiB))).toBe(true);
    // Then nothing: no byte, no end, no error, for as long as the client waits.
    const next = reader.read().then(
      () => 'read',
      () => 'ended',
    );
    const quiet = await Promise.race([next, new Promise((r) => setTimeout(() => r('quiet'), 500))]);
    expect(quiet).toBe('quiet');
    leave.abort();
    expect(await next).toBe('ended');

    expect(faults.counts()).toEqual({ requests: 1, failed: 0, dropped: 0, stalled: 1 });
    faults.set(null);
  });

  it('delays every storage request by the delay asked for', async () => {
    faults.set({ delayMs: 300 });
    const started = performance.now();
    expect((await put('slow', 'x')).status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(faults.counts().requests).toBe(1);
  });

  it('leaves the API and CORS preflights alone', async () => {
    faults.set({ fail: 1, drop: 1 });
    const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
    expect(echo.json()).toEqual({ a: 1 });
    const preflight = await fetch(url('PUT', 'x'), {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(200);
    expect(faults.counts()).toEqual({ requests: 0, failed: 0, dropped: 0, stalled: 0 });
  });
});
