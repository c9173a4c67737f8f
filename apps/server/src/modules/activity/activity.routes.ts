import type { FastifyInstance } from 'fastify';
import { activityRoutes as routes, adminMessages } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { contractAdmin } from '../contracts/contract-access';
import { activityPage } from './activity.repository';
import { REPORT_JOB, reportRange, type ReportJob } from './activity-report';

/** Activity is the project admin's view of every package of the contract. */
export async function activityRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  const admin = { access: contractAdmin(ctx.db) };

  serve(
    app,
    routes.page,
    async (request, _reply, contract) =>
      activityPage(ctx.db, contract, request.query.text, request.query.page),
    admin,
  );

  serve(
    app,
    routes.exportCsv,
    async (request, _reply, contract) => {
      const range = reportRange(request.body);
      const userId = requireUser(request).user.id;
      const job: ReportJob = { contractId: contract.id, userId, ...range };
      await ctx.jobs.enqueue(ctx.db, REPORT_JOB, { ...job });
      return {
        detail: adminMessages.reportQueued,
        date_from: range.dateFrom,
        date_to: range.dateTo,
      };
    },
    admin,
  );
}
