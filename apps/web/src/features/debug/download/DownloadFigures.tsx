import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatRate, formatSize } from '@filerunner/protocol';
import type { ExtractFileState } from '@filerunner/transfer/browser';
import { percentOf } from '../../transfers/transfer-format';
import type { DownloadView } from './download-view';

const fileStateLabels: Record<ExtractFileState, string> = {
  pending: 'Pending',
  writing: 'Writing',
  closing: 'Closing',
  closed: 'Closed',
  error: 'Error',
};

/** The figures of the running (or replayed) download. */
export function Figures({ view }: { view: DownloadView }) {
  const { progress, memory } = view;
  const percent = progress ? percentOf(progress.receivedBytes, progress.totalBytes) : 0;
  const rows: [string, string, string][] = [
    ['Download rate', 'figure-download-rate', progress ? `${formatRate(progress.rate)}` : '–'],
    ['Extract rate', 'figure-extract-rate', progress ? `${formatRate(progress.extractRate)}` : '–'],
    [
      'Progress',
      'figure-progress',
      progress
        ? `${formatSize(progress.receivedBytes)} of ${formatSize(progress.totalBytes)} (${percent}%)`
        : '–',
    ],
    [
      'Files',
      'figure-files',
      progress ? `${progress.completedFiles} of ${progress.totalFiles} completed` : '–',
    ],
    [
      'Unpacked files',
      'figure-file-states',
      (Object.keys(fileStateLabels) as ExtractFileState[])
        .map((state) => `${fileStateLabels[state]} ${view.files[state]}`)
        .join(' · '),
    ],
    [
      'Chunks',
      'figure-chunks',
      `${view.chunks.finished} of ${view.chunks.started} finished, ${view.chunks.retried} retried`,
    ],
    [
      'Memory',
      'figure-memory',
      memory
        ? `${formatSize(memory.usedBytes)} used of ${formatSize(memory.totalBytes)} (limit ${formatSize(memory.limitBytes)})`
        : 'Not told by this browser',
    ],
    ['Events', 'figure-events', String(view.events)],
  ];
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label="Download progress"
        sx={{ mb: 2 }}
      />
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 1, m: 0 }}
      >
        {rows.map(([label, testId, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" data-testid={testId} sx={{ m: 0 }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
