import { stringify } from 'csv-stringify/sync';
import { eq } from 'drizzle-orm';
import { todayIso, type ActivityPackage, type reportRequest } from '@filerunner/protocol';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { contracts, users, type OutboxMail } from '../../db/schema';
import { enqueueMail } from '../../jobs/outbox-sender';
import { userColumns } from '../accounts/accounts.repository';
import { packagesSentBetween } from './activity.repository';

export const REPORT_JOB = 'activity-report';

export interface ReportJob {
  contractId: number;
  userId: number;
  dateFrom: string;
  dateTo: string;
}

const DAY_MS = 86_400_000;

/** The inclusive day range of a report request: the last N days up to today, or the custom dates. */
export function reportRange(
  request: z.infer<typeof reportRequest>,
  now = new Date(),
): { dateFrom: string; dateTo: string } {
  if (request.report_period === 'custom')
    return { dateFrom: request.date_from!, dateTo: request.date_to! };
  const dateTo = todayIso(now);
  const dateFrom = todayIso(new Date(now.getTime() - Number(request.report_period) * DAY_MS));
  return { dateFrom, dateTo };
}

/** A cell that a spreadsheet would run as a formula is written as text instead. */
const cell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export function activityCsv(packages: ActivityPackage[]): string {
  const header = [
    'Package',
    'Sender',
    'Sender email',
    'Recipients',
    'Date sent',
    'Valid from',
    'Expires',
    'Status',
    'Files',
    'Bytes',
    'Downloaded by',
  ];
  const rows = packages.map((p) => [
    cell(p.name),
    cell(p.sender?.name ?? ''),
    cell(p.sender?.email ?? ''),
    cell(p.recipients.map((r) => r.email).join('; ')),
    p.date_sent,
    p.valid_date,
    p.expires_date,
    p.status,
    String(p.num_files),
    String(p.bytes),
    cell(
      p.recipients
        .filter((r) => r.downloaded === 'complete')
        .map((r) => r.email)
        .join('; '),
    ),
  ]);
  return stringify([header, ...rows]);
}

/** Builds the report of a job and queues the mail that carries it, in the job's transaction. */
export function activityReportHandler(config: Config) {
  return async (db: Database, payload: Record<string, unknown>) => {
    const job = payload as unknown as ReportJob;
    const [contract] = await db.select().from(contracts).where(eq(contracts.id, job.contractId));
    const [user] = await db.select(userColumns).from(users).where(eq(users.id, job.userId));
    if (!contract || !user) return;
    const from = new Date(`${job.dateFrom}T00:00:00.000Z`);
    const to = new Date(new Date(`${job.dateTo}T00:00:00.000Z`).getTime() + DAY_MS);
    const packages = await packagesSentBetween(db, contract, from, to);
    const mail: OutboxMail = {
      to: user.email,
      subject: `Activity report for ${contract.name}: ${job.dateFrom} to ${job.dateTo}`,
      text: [
        `${config.publicUrl}/activity`,
        '',
        `Attached is the activity of ${contract.name} from ${job.dateFrom} to ${job.dateTo} (UTC): ${packages.length} package${packages.length === 1 ? '' : 's'}.`,
      ].join('\n'),
      attachments: [
        {
          filename: `activity-${contract.slug}-${job.dateFrom}-to-${job.dateTo}.csv`,
          content: activityCsv(packages),
          contentType: 'text/csv',
        },
      ],
    };
    await enqueueMail(db, mail);
  };
}
