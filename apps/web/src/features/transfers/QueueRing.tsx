import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { Tone } from './upload-panel-model';

const RING_SIZE = 56;

/** What the ring counts, in its label: 'Upload queue: 2 uploads, 40%'. */
export interface QueueNames {
  queue: string;
  one: string;
  many: string;
}

export const queueNames = {
  uploads: { queue: 'Upload queue', one: 'upload', many: 'uploads' },
  downloads: { queue: 'Download queue', one: 'download', many: 'downloads' },
  transfers: { queue: 'Transfer queue', one: 'transfer', many: 'transfers' },
} satisfies Record<string, QueueNames>;

/**
 * The collapsed panel: a ring of the queue's progress, coloured by its state, with the number
 * of transfers in the queue at its centre. Pressing it opens the queue.
 */
export function QueueRing(props: {
  names: QueueNames;
  percent: number;
  count: number;
  tone: Tone;
  onOpen: () => void;
}) {
  const { names, percent, count, tone } = props;
  return (
    <ButtonBase
      onClick={props.onOpen}
      aria-label={`${names.queue}: ${count} ${count === 1 ? names.one : names.many}, ${percent}%`}
      data-tone={tone}
      sx={{ borderRadius: '50%', position: 'relative', width: RING_SIZE, height: RING_SIZE }}
    >
      <CircularProgress
        variant="determinate"
        value={100}
        size={RING_SIZE}
        thickness={4}
        aria-hidden
        sx={{ position: 'absolute', color: 'action.hover' }}
      />
      <CircularProgress
        variant="determinate"
        value={percent}
        size={RING_SIZE}
        thickness={4}
        color={tone}
        aria-label={`${names.queue} progress`}
        sx={{ position: 'absolute' }}
      />
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
        <Typography
          variant="subtitle1"
          component="span"
          sx={{ fontWeight: 700 }}
          data-testid="queue-count"
        >
          {count}
        </Typography>
      </Box>
    </ButtonBase>
  );
}
