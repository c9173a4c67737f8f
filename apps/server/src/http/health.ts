import type { FastifyInstance } from 'fastify';
import { formatSize } from '@filerunner/protocol';
import type { Context } from '../context';
import { databaseWrites } from '../db/client';
import { bearsMetricsToken } from './metrics';

/** What /healthcheck answers: `ok`, `degraded` (serving, but something needs the operator), or down. */
export interface Health {
  readonly status: 'ok' | 'degraded' | 'database unavailable';
  /** Why it is not `ok`, for the operator. */
  readonly problems: readonly string[];
  /** The data folder's volume: free bytes and the floor kept free for the database. */
  readonly storage?: { readonly free_bytes: number; readonly floor_bytes: number };
}

/**
 * The server's health. The database is asked to commit a write, not only to answer: a database
 * that can read but not write (its disk full, read-only) cannot log anyone in or take a package,
 * so a load balancer should stop sending it work (503). Free space under the floor leaves the
 * server serving everything but new files, so it is `degraded` with 200.
 */
export async function checkHealth(ctx: Pick<Context, 'db' | 'freeSpace'>): Promise<Health> {
  const problems: string[] = [];
  const writes = await databaseWrites(ctx.db);
  if (!writes) problems.push('The database cannot commit a write.');
  const verdict = await ctx.freeSpace.refusing().catch(() => null);
  const space = verdict?.space;
  if (!verdict) problems.push('The free space of the data folder cannot be read.');
  else if (verdict.refusing && space) {
    problems.push(
      `Storage is full: ${formatSize(space.freeBytes)} free, at the floor of ` +
        `${formatSize(space.floorBytes)} kept for the database (STORAGE_FREE_FLOOR); ` +
        'new files are refused (507) until space is freed.',
    );
  }
  return {
    status: !writes ? 'database unavailable' : problems.length > 0 ? 'degraded' : 'ok',
    problems,
    ...(space ? { storage: { free_bytes: space.freeBytes, floor_bytes: space.floorBytes } } : {}),
  };
}

/**
 * GET /healthcheck: 503 while the database cannot commit a write, else 200. Anyone (a balancer,
 * the latency page timing a host) gets the status alone; the volume's figures and the problems
 * naming them go only to the operator, with the metrics token (they are also in /metrics).
 */
export function serveHealth(
  app: FastifyInstance,
  ctx: Pick<Context, 'db' | 'freeSpace'>,
  metricsToken: string | null,
): void {
  app.get('/healthcheck', async (request, reply) => {
    const health = await checkHealth(ctx);
    const code = health.status === 'database unavailable' ? 503 : 200;
    const operator = bearsMetricsToken(request, metricsToken);
    return reply
      .code(code)
      .header('cache-control', 'no-store')
      .send(operator ? health : { status: health.status });
  });
}
