import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adminMessages, reportRequest } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/errors';
import { adminOf } from '../contracts/contracts.policy';
import { activityPage } from './activity.repository';
import { REPORT_JOB, reportRange, type ReportJob } from './activity-report';

const activityQuery = z.object({
  text: z.string().max(200).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** Activity is the project admin's view of every package of the contract. */
export async function activityRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  app.get('/packages/:contract/activity/', async (request) => {
    const { contract } = await adminOf(
      ctx.db,
      requireUser(request),
      (request.params as { contract: string }).contract,
    );
    const { text, page } = parse(activityQuery, request.query);
    return activityPage(ctx.db, contract, text, page);
  });

  app.post('/contracts/:slug/activity/csv/', async (request, reply) => {
    const principal = requireUser(request);
    const { contract } = await adminOf(
      ctx.db,
      principal,
      (request.params as { slug: string }).slug,
    );
    const range = reportRange(parse(reportRequest, request.body));
    const job: ReportJob = { contractId: contract.id, userId: principal.user.id, ...range };
    await ctx.jobs.enqueue(ctx.db, REPORT_JOB, { ...job });
    return reply.code(202).send({
      detail: adminMessages.reportQueued,
      date_from: range.dateFrom,
      date_to: range.dateTo,
    });
  });
}
