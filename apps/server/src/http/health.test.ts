import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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

async function health() {
  const response = await server.app.inject({ method: 'GET', url: '/healthcheck' });
  return { code: response.statusCode, ...(response.json() as { status: string }) };
}

describe('/healthcheck', () => {
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
    } finally {
      await asAdministrator(`alter database "${name}" with allow_connections true`);
    }
    // The pool opens new connections by itself: no restart.
    expect(await health()).toMatchObject({ code: 200, status: 'ok' });
  });
});
