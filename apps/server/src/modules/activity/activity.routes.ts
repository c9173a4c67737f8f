import type { FastifyInstance } from 'fastify';
import { activityRoutes as routes, adminMessages } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { adminOf } from '../contracts/contracts.policy';
import { activityPage } from './activity.repository';
import { REPORT_JOB, reportRange, type ReportJob } from './activity-report';

/** Activity is the project admin's view of every package of the contract. */
export async function activityRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, routes.page, async (request) => {
    const { contract } = await adminOf(ctx.db, requireUser(request), request.params.contract);
    return activityPage(ctx.db, contract, request.query.text, request.query.page);
  });

  serve(app, routes.exportCsv, async (request) => {
    const principal = requireUser(request);
    const { contract } = await adminOf(ctx.db, principal, request.params.slug);
    const range = reportRange(request.body);
    const job: ReportJob = { contractId: contract.id, userId: principal.user.id, ...range };
    await ctx.jobs.enqueue(ctx.db, REPORT_JOB, { ...job });
    return { detail: adminMessages.reportQueued, date_from: range.dateFrom, date_to: range.dateTo };
  });
}
