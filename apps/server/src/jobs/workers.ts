import type { Context, Workers } from '../context';

/**
 * Starts every background worker of the context (the mail outbox, the job runner, the expiry
 * and object sweepers); the answer stops them all, each after the pass under way.
 */
export function startWorkers(ctx: Pick<Context, 'workers'>): () => Promise<void> {
  const { outbox, jobs, expirySweeper, objectSweeper } = ctx.workers;
  outbox.start();
  jobs.start();
  expirySweeper.start();
  objectSweeper.start();
  return () => stopWorkers(ctx.workers);
}

/** Stops the workers' loops, each after the pass under way; stopping an idle one is harmless. */
export async function stopWorkers(workers: Workers): Promise<void> {
  await workers.expirySweeper.stop();
  await workers.objectSweeper.stop();
  await workers.jobs.stop();
  await workers.outbox.stop();
}
