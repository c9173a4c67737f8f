import { LineChart } from '@mui/x-charts/LineChart';
import { formatRate } from '@filerunner/protocol';
import type { RatePoint } from './download-view';

/** One rate over time, the newest 500 points, in the units the transfer panel uses. */
function RateChart({
  title,
  points,
  colour,
}: {
  title: string;
  points: readonly RatePoint[];
  colour: string;
}) {
  return (
    <LineChart
      aria-label={title}
      height={220}
      hideLegend
      skipAnimation
      margin={{ left: 8, right: 24 }}
      xAxis={[
        {
          data: points.map((p) => p.t),
          label: 'Seconds',
          valueFormatter: (t: number) => t.toFixed(1),
        },
      ]}
      yAxis={[{ min: 0, width: 90, valueFormatter: (rate: number) => formatRate(rate) }]}
      series={[
        {
          data: points.map((p) => p.rate),
          label: title,
          color: colour,
          showMark: false,
          valueFormatter: (rate) => formatRate(rate ?? 0),
        },
      ]}
    />
  );
}

/** The download and extract rates as charts: a module of its own, loaded with the first run. */
export function RateCharts(props: {
  downloadRates: readonly RatePoint[];
  extractRates: readonly RatePoint[];
}) {
  return (
    <>
      <div data-testid="download-rate-chart">
        <RateChart title="Download rate" points={props.downloadRates} colour="#1565c0" />
      </div>
      <div data-testid="extract-rate-chart">
        <RateChart title="Extract rate" points={props.extractRates} colour="#2e7d32" />
      </div>
    </>
  );
}
