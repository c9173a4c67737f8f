import { describe, expect, it } from 'vitest';
import { exportBody, exportProblem } from './export-form';

const today = '2025-03-10';

describe('the export form', () => {
  it('needs no dates for the fixed periods', () => {
    for (const period of ['7', '30', '90', '180'] as const) {
      expect(exportProblem({ period, dateFrom: '', dateTo: '' }, today)).toBeNull();
      expect(exportBody({ period, dateFrom: '2025-01-01', dateTo: '' })).toEqual({
        report_period: period,
      });
    }
  });

  it('needs both dates for a custom period', () => {
    const custom = { period: 'custom' as const, dateFrom: '', dateTo: '' };
    expect(exportProblem(custom, today)).toBe('Please select a start and end date');
    expect(exportProblem({ ...custom, dateFrom: '2025-03-01' }, today)).toBe(
      'Please select a start and end date',
    );
  });

  it('takes no date later than today and no end before the start', () => {
    const custom = { period: 'custom' as const, dateFrom: '2025-03-01', dateTo: '2025-03-11' };
    expect(exportProblem(custom, today)).toBe('Dates cannot be later than today');
    expect(exportProblem({ ...custom, dateTo: '2025-02-28' }, today)).toBe(
      'The end date cannot be before the start date',
    );
    expect(exportProblem({ ...custom, dateTo: today }, today)).toBeNull();
    expect(exportProblem({ ...custom, dateTo: '2025-03-01' }, today)).toBeNull();
    expect(exportBody({ ...custom, dateTo: today })).toEqual({
      report_period: 'custom',
      date_from: '2025-03-01',
      date_to: today,
    });
  });
});
