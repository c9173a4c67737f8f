import { adminMessages, reportPeriods } from '@filerunner/protocol';

export type ReportPeriod = (typeof reportPeriods)[number];

export const reportPeriodLabels: Record<ReportPeriod, string> = {
  '7': 'Last 7 days',
  '30': 'Last 30 days',
  '90': 'Last 90 days',
  '180': 'Last 180 days',
  custom: 'Custom range',
};

/** Reports are built and mailed in the background (they may take up to 24 hours). */
export const reportDelayNote = 'Reports can take up to 24 hours to arrive.';

export interface ExportForm {
  period: ReportPeriod;
  /** YYYY-MM-DD, or '' when not picked. */
  dateFrom: string;
  dateTo: string;
}

/**
 * Why the export cannot be asked for, or null: a custom period needs both dates, neither later
 * than today, and the end not before the start. `today` is YYYY-MM-DD in UTC, the
 * calendar the server's reports use.
 */
export function exportProblem(form: ExportForm, today: string): string | null {
  if (form.period !== 'custom') return null;
  if (!form.dateFrom || !form.dateTo) return adminMessages.exportDatesRequired;
  if (form.dateFrom > today || form.dateTo > today) return adminMessages.exportFutureDate;
  if (form.dateTo < form.dateFrom) return adminMessages.exportEndBeforeStart;
  return null;
}

export function exportBody(form: ExportForm) {
  return form.period === 'custom'
    ? { report_period: form.period, date_from: form.dateFrom, date_to: form.dateTo }
    : { report_period: form.period };
}
