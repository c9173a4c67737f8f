import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailFolder } from '../../test/captured-mail';
import { loadConfig } from '../config';
import { createContext, type Context } from '../context';
import { contracts, packages, users } from '../db/schema';
import { createScratchDatabase } from '../db/scratch-database';
import { startWorkers } from './workers';

const HOUR = 3_600_000;
const TEST_JOB = 'workers-test';

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let ctx: Context;
const jobsRun: unknown[] = [];

beforeAll(async () => {
  database = await createScratchDatabase(process.env.DATABASE_URL!);
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-workers-'));
  ctx = await createContext(
    loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PUBLIC_URL: 'http://127.0.0.1:8080',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    }),
  );
  ctx.jobs.register(TEST_JOB, async (_db, payload) => {
    jobsRun.push(payload.n);
  });
});

afterAll(async () => {
  await ctx.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const mailsTo = async (to: string) =>
  (await readMailFolder(path.join(dataDir, 'mail'))).filter((m) =>
    JSON.stringify(m.to).includes(to),
  );

/** Waits for `check` to hold, looking every 100 ms for up to 10 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the workers');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function seedPackages() {
  const [contract] = await ctx.db
    .insert(contracts)
    .values({ name: 'Workers', slug: 'workers' })
    .returning();
  const [sender] = await ctx.db
    .insert(users)
    .values({ email: 'sender@example.com', firstName: 'Sam', lastName: 'Sender' })
    .returning();
  const add = (slug: string, expiresInHours: number) =>
    ctx.db
      .insert(packages)
      .values({
        slug,
        contractId: contract!.id,
        senderId: sender!.id,
        name: slug,
        status: 'complete',
        validFrom: new Date(Date.now() - 48 * HOUR),
        expiresAt: new Date(Date.now() + expiresInHours * HOUR),
      })
      .returning()
      .then(([row]) => row!.id);
  return { expiringSoon: await add('expiring-soon', 12), expired: await add('expired', -1) };
}

const packageRow = async (id: number) =>
  (await ctx.db.select().from(packages).where(eq(packages.id, id)))[0]!;

describe('startWorkers', () => {
  it('starts the outbox, the job runner and both sweepers; its answer stops them', async () => {
    const { expiringSoon, expired } = await seedPackages();
    await ctx.mailbox.queue(ctx.db, { to: 'before@example.com', subject: 'Hi', text: 'one' });
    await ctx.jobs.enqueue(ctx.db, TEST_JOB, { n: 1 });

    const stop = startWorkers(ctx);
    try {
      await eventually(async () => (await mailsTo('before@example.com')).length === 1);
      await eventually(async () => jobsRun.length === 1);
      await eventually(async () => (await packageRow(expiringSoon)).expiryNotifiedAt !== null);
      await eventually(async () => (await packageRow(expired)).objectsDeletedAt !== null);
    } finally {
      await stop();
    }

    // Stopped: what is queued now waits for the next start (outbox polls every 2 s).
    await ctx.mailbox.queue(ctx.db, { to: 'after@example.com', subject: 'Hi', text: 'two' });
    await ctx.jobs.enqueue(ctx.db, TEST_JOB, { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await mailsTo('after@example.com')).toHaveLength(0);
    expect(jobsRun).toEqual([1]);

    // Started again, they pick it up.
    const stopAgain = startWorkers(ctx);
    try {
      await eventually(async () => (await mailsTo('after@example.com')).length === 1);
      await eventually(async () => jobsRun.length === 2);
    } finally {
      await stopAgain();
    }
  });
});
