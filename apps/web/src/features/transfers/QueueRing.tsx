import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { Tone } from './upload-panel-model';

const RING_SIZE = 56;

/**
 * The collapsed panel: a ring of the queue's progress, coloured by its state, with the number
 * of uploads in the queue at its centre. Pressing it opens the queue.
 */
export function QueueRing(props: {
  percent: number;
  count: number;
  tone: Tone;
  onOpen: () => void;
}) {
  const { percent, count, tone } = props;
  return (
    <ButtonBase
      onClick={props.onOpen}
      aria-label={`Upload queue: ${count} ${count === 1 ? 'upload' : 'uploads'}, ${percent}%`}
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
        aria-label="Upload queue progress"
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
