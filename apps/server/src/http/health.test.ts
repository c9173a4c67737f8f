import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

const METRICS_TOKEN = 'health-test-metrics-token';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN });
});
afterAll(() => server.close());

/** Runs a statement on the PostgreSQL server as its administrator, outside the app's pool. */
async function asAdministrator(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function health(authorization = `Bearer ${METRICS_TOKEN}`) {
  const response = await server.app.inject({
    method: 'GET',
    url: '/healthcheck',
    headers: { authorization },
  });
  return { code: response.statusCode, ...(response.json() as { status: string }) };
}

describe('/healthcheck', () => {
  it('tells anyone the status only, and the operator (metrics token) the volume too', async () => {
    const anyone = await server.app.inject({ method: 'GET', url: '/healthcheck' });
    expect([anyone.statusCode, anyone.json()]).toEqual([200, { status: 'ok' }]);
    expect(await health('Bearer not-the-metrics-token-at-all')).toEqual({
      code: 200,
      status: 'ok',
    });
    const operator = await health();
    expect(operator).toMatchObject({ code: 200, status: 'ok', problems: [] });
    expect(operator).toHaveProperty('storage.free_bytes', expect.any(Number));
    expect(operator).toHaveProperty('storage.floor_bytes', expect.any(Number));
  });

  it('puts the free bytes and the floor in /metrics', async () => {
    const scraped = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.body).toMatch(/^filerunner_storage_free_bytes \d+$/m);
    expect(scraped.body).toMatch(/^filerunner_storage_free_floor_bytes \d+$/m);
  });

  it('answers 503 while the database cannot take a write, and ok once it can again', async () => {
    expect(await health()).toMatchObject({ code: 200, status: 'ok', problems: [] });
    const name = new URL(server.ctx.config.databaseUrl!).pathname.slice(1);
    await asAdministrator(`alter database "${name}" with allow_connections false`);
    try {
      await asAdministrator(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
      );
      expect(await health()).toMatchObject({
        code: 503,
        status: 'database unavailable',
        problems: ['The database cannot commit a write.'],
      });
      expect(await health('')).toEqual({ code: 503, status: 'database unavailable' });
    } finally {
      await asAdministrator(`alter database "${name}" with allow_connections true`);
    }
    // The pool opens new connections by itself: no restart.
    expect(await health()).toMatchObject({ code: 200, status: 'ok' });
  });
});
