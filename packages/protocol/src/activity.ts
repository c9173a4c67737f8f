import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';
import { adminMessages } from './contracts';

export const reportPeriods = ['7', '30', '90', '180', 'custom'] as const;
const isoDate = text().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD.');

/** Today as YYYY-MM-DD in UTC, the calendar the report's ISO dates use. */
export const todayIso = (now = new Date()) => now.toISOString().slice(0, 10);

export const reportRequest = z
  .object({
    report_period: z
      .union([z.enum(reportPeriods), z.number().int()])
      .transform(String)
      .pipe(z.enum(reportPeriods)),
    date_from: isoDate.nullish(),
    date_to: isoDate.nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.report_period !== 'custom') return;
    if (!r.date_from || !r.date_to) {
      ctx.addIssue({
        code: 'custom',
        path: ['date_from'],
        message: adminMessages.exportDatesRequired,
      });
      return;
    }
    if (r.date_from > todayIso() || r.date_to > todayIso()) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: adminMessages.exportFutureDate });
    }
    if (r.date_to < r.date_from) {
      ctx.addIssue({
        code: 'custom',
        path: ['date_to'],
        message: adminMessages.exportEndBeforeStart,
      });
    }
  });

/** The report's answer: it is mailed later, so only the day range it covers comes back. */
export const reportQueued = z.object({
  detail: z.string(),
  date_from: z.string(),
  date_to: z.string(),
});

/** A search of the Activity screen and the page of its results (15 packages a page). */
export const activityQuery = z.object({
  text: text().max(200).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const activityPackage = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  /** Null once the sender's account is gone. */
  sender: z.object({ name: z.string(), email: z.string() }).nullable(),
  contract: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  date_sent: z.string(),
  valid_date: z.string(),
  expires_date: z.string(),
  expired: z.boolean(),
  bytes: z.number(),
  num_files: z.number(),
  status: z.string(),
  recipients: z.array(
    z.object({
      email: z.string(),
      name: z.string(),
      downloaded: z.enum(['none', 'partial', 'complete']),
      removed: z.boolean(),
    }),
  ),
});
export type ActivityPackage = z.infer<typeof activityPackage>;

export const activityPageResponse = z.object({
  packages: z.array(activityPackage),
  page: z.number(),
  total: z.number(),
  has_more: z.boolean(),
});
export type ActivityPage = z.infer<typeof activityPageResponse>;

/** The project admin's view of every package of the contract, and its CSV report. */
export const activityRoutes = {
  page: defineRoute({
    method: 'GET',
    path: '/packages/:contract/activity/',
    summary: "One page of the contract's packages, newest first, matching a search",
    auth: 'user',
    params: z.object({ contract: slugParam }),
    query: activityQuery,
    status: 200,
    response: activityPageResponse,
  }),
  exportCsv: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/activity/csv/',
    summary: 'Queue the CSV report of a period; it is mailed to the signed-in admin',
    auth: 'user',
    params: z.object({ slug: slugParam }),
    body: reportRequest,
    status: 202,
    response: reportQueued,
  }),
};
