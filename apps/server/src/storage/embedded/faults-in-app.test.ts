import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
useTestServer((t) => ({ server } = t), { STORE_FAULTS: 'fail=1' });

describe('STORE_FAULTS in the whole app', () => {
  it('fails storage requests under /v1/ only, until a test turns the faults off', async () => {
    const { storage } = server.ctx;
    await storage.ensureContainer('packages');
    const signed = (method: 'GET' | 'PUT') => {
      const url = new URL(
        storage.signTempUrl({
          method,
          container: 'packages',
          key: 'faults/a.txt',
          expires: Math.floor(Date.now() / 1000) + 600,
        }).url,
      );
      return url.pathname + url.search;
    };
    const put = () =>
      server.app.inject({ method: 'PUT', url: signed('PUT'), payload: 'hello storage' });

    expect(server.storeFaults?.settings).toEqual({ fail: 1, drop: 0, stall: 0, delayMs: 0 });
    expect((await put()).statusCode).toBe(503);
    const constraints = await server.app.inject({
      method: 'GET',
      url: '/api/filesystem/constraints/',
    });
    expect(constraints.statusCode).toBe(200);
    const health = await server.app.inject({ method: 'GET', url: '/healthcheck' });
    expect(health.statusCode).toBe(200);
    expect(server.storeFaults?.counts()).toEqual({
      requests: 1,
      failed: 1,
      dropped: 0,
      stalled: 0,
    });

    server.storeFaults!.set(null);
    expect((await put()).statusCode).toBe(201);
    const get = await server.app.inject({ method: 'GET', url: signed('GET') });
    expect(get.body).toBe('hello storage');
  });
});
