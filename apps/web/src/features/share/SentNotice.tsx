import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { uploadQueueOpened } from '../transfers/transfers-slice';
import {
  bannerOf,
  sentMessageOf,
  uploadPercent,
  uploadStatusLabel,
} from '../transfers/upload-panel-model';

/**
 * After a send: the package just handed to the upload queue, how far it has got, and a link to
 * the queue.
 */
export function SentNotice(props: { id: string; name: string; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const record = useAppSelector((s) => s.uploads.records[props.id]);
  const percent = record ? uploadPercent(record) : 0;
  const status = record?.status ?? 'QUEUED';
  const trouble = status === 'FAILED' || status === 'INCOMPLETE';
  // The same words the transfer panel uses for the same upload.
  const text =
    (record && (sentMessageOf(record) ?? bannerOf(record)?.text)) ?? uploadStatusLabel[status];

  return (
    <Alert
      severity={trouble ? 'error' : 'success'}
      onClose={props.onClose}
      action={
        <Button color="inherit" size="small" onClick={() => dispatch(uploadQueueOpened())}>
          View upload queue
        </Button>
      }
      data-testid="sent-notice"
    >
      Your package "{props.name}" is in the upload queue.{' '}
      <span data-testid="sent-status">
        {text}
        {status === 'UPLOADING' ? ` ${percent}%` : ''}
      </span>
      {(status === 'UPLOADING' || status === 'QUEUED') && (
        <LinearProgress variant="determinate" value={percent} sx={{ mt: 1 }} />
      )}
    </Alert>
  );
}
