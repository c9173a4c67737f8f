import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/harness';

// What a load balancer reads from /readyz: not yet while the node starts, no longer once it
// drains, and not while the database does not answer; /healthcheck stays liveness.

describe('/readyz', () => {
  it('follows the node from start to drain, and the database', { timeout: 60_000 }, async () => {
    const server = await startTestServer();
    const readyz = async () => {
      const response = await server.app.inject({ method: 'GET', url: '/readyz' });
      return {
        status: response.statusCode,
        body: response.json<{ status: string; problems: string[] }>(),
      };
    };
    try {
      expect(await readyz()).toMatchObject({ status: 503, body: { status: 'starting' } });
      await server.app.listen({ host: '127.0.0.1', port: 0 });
      expect(await readyz()).toMatchObject({
        status: 200,
        body: { status: 'ready', problems: [] },
      });

      // The database stops taking connections: ready no more, with the reason; live still.
      const url = new URL(server.ctx.config.databaseUrl!);
      const name = url.pathname.slice(1);
      const admin = new pg.Client({
        connectionString: Object.assign(url, { pathname: '/postgres' }).href,
      });
      await admin.connect();
      try {
        await admin.query(`alter database "${name}" allow_connections false`);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
          [name],
        );
        const down = await readyz();
        expect(down.status).toBe(503);
        expect(down.body).toEqual({
          status: 'not ready',
          problems: ['The database does not answer.'],
        });
      } finally {
        await admin.query(`alter database "${name}" allow_connections true`);
        await admin.end();
      }
      expect((await readyz()).status).toBe(200);

      server.readiness.drain();
      expect(await readyz()).toMatchObject({ status: 503, body: { status: 'draining' } });
      const live = await server.app.inject({ method: 'GET', url: '/healthcheck' });
      expect(live.statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });
});
