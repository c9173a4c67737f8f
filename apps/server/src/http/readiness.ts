import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Context } from '../context';

/** Where a node is in its life, as a load balancer needs to know it. */
export type NodeState = 'starting' | 'ready' | 'draining';

/** What /readyz answers. */
export interface Readiness {
  readonly status: 'ready' | 'starting' | 'draining' | 'not ready';
  /** Why it is not ready, for the operator. */
  readonly problems: readonly string[];
}

/** A dependency that takes longer than this to answer counts as unreachable. */
const CHECK_TIMEOUT_MS = 2000;
/** Storage is asked at most this often: a balancer polling every node must not load it. */
const STORAGE_CHECK_EVERY_MS = 5000;

/**
 * Whether this node should be sent new work. /healthcheck says whether the process lives (a
 * balancer that fails it restarts the node); /readyz says whether to route to it: not while it
 * starts, not while it drains before stopping, not while it cannot reach the database or storage.
 */
export class NodeReadiness {
  private state: NodeState = 'starting';
  private storageChecked: { at: number; problem: string | null } | null = null;

  constructor(private readonly ctx: Pick<Context, 'db' | 'storage'>) {}

  /** The node listens and its workers run. */
  markReady(): void {
    if (this.state === 'starting') this.state = 'ready';
  }

  /** The node is stopping: /readyz answers 503 from now on, while requests are still served. */
  drain(): void {
    this.state = 'draining';
  }

  get current(): NodeState {
    return this.state;
  }

  async check(now = Date.now()): Promise<Readiness> {
    if (this.state !== 'ready') return { status: this.state, problems: [] };
    const [database, storage] = await Promise.all([
      this.databaseProblem(),
      this.storageProblem(now),
    ]);
    const problems = [database, storage].filter((p): p is string => p !== null);
    return { status: problems.length > 0 ? 'not ready' : 'ready', problems };
  }

  private async databaseProblem(): Promise<string | null> {
    const answered = await within(this.ctx.db.execute(sql`select 1`));
    return answered ? null : 'The database does not answer.';
  }

  private async storageProblem(now: number): Promise<string | null> {
    const last = this.storageChecked;
    if (last && now - last.at < STORAGE_CHECK_EVERY_MS) return last.problem;
    // Any object will do: a missing one answers quickly, and only an unreachable store throws.
    const answered = await within(
      this.ctx.storage.head({ container: 'filerunner-readiness', key: 'probe' }),
    );
    const problem = answered ? null : 'Object storage does not answer.';
    this.storageChecked = { at: now, problem };
    return problem;
  }
}

/** True when `work` succeeds within the check's timeout; a late answer is ignored. */
async function within(work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  const settled = work.then(
    () => true,
    () => false,
  );
  const answered = await Promise.race([settled, late]);
  clearTimeout(timer);
  return answered;
}

/** GET /readyz: 200 when the node takes new work, else 503 with the reason. */
export function serveReadiness(app: FastifyInstance, readiness: NodeReadiness): void {
  app.get('/readyz', async (_request, reply) => {
    const answer = await readiness.check();
    return reply
      .code(answer.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(answer);
  });
}
