import { BarChart } from '@mui/x-charts/BarChart';
import { axisMaximum, rateLatency, ratingColours } from './latency-check';

export interface LatencyBar {
  label: string;
  /** Milliseconds; null for no response. Undefined while still measuring (no bar yet). */
  latency: number | null | undefined;
}

const BAR_HEIGHT = 36;

/**
 * Horizontal bars of latency, one per group or per host. A host with no response gets a full
 * grey bar, so a dead region stands out rather than looking fastest.
 */
export function LatencyChart({ bars, title }: { bars: readonly LatencyBar[]; title: string }) {
  const max = axisMaximum(bars.map((b) => b.latency ?? null));
  const indices = bars.map((_, i) => i);
  return (
    <BarChart
      aria-label={title}
      height={BAR_HEIGHT * bars.length + 70}
      layout="horizontal"
      hideLegend
      margin={{ left: 8, right: 24 }}
      xAxis={[{ min: 0, max, label: 'Latency (ms)' }]}
      yAxis={[
        {
          scaleType: 'band',
          data: indices,
          width: 160,
          valueFormatter: (i: number) => bars[i]?.label ?? '',
          colorMap: {
            type: 'ordinal',
            values: indices,
            colors: bars.map((b) => ratingColours[rateLatency(b.latency ?? null)]),
          },
        },
      ]}
      series={[
        {
          data: bars.map((b) => (b.latency === undefined ? null : (b.latency ?? max))),
          label: 'Latency',
          valueFormatter: (value, { dataIndex }) =>
            bars[dataIndex]?.latency === null ? 'No response' : `${value} ms`,
        },
      ]}
    />
  );
}
