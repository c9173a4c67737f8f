import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import type { UploadRecord } from '@filerunner/transfer';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { uploadQueueOpened } from '../transfers/transfers-slice';

const statusText: Record<UploadRecord['status'], string> = {
  QUEUED: 'Queued',
  UPLOADING: 'Uploading',
  RETRYING: 'Retrying',
  PAUSED: 'Paused',
  UPLOADED: 'Uploaded',
  COMPLETING: 'Completing',
  COMPLETED: 'Sent: the recipients have been emailed',
  FORCE_COMPLETED: 'Sent without the failed files: the recipients have been emailed',
  INCOMPLETE: 'We experienced an issue completing your package',
  FAILED: 'We failed to upload some of your files',
};

/**
 * After a send: the package just handed to the upload queue, how far it has got, and a link to
 * the queue.
 */
export function SentNotice(props: { id: string; name: string; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const record = useAppSelector((s) => s.uploads.records[props.id]);
  const { totalBytes, completedBytes } = record?.progress ?? { totalBytes: 0, completedBytes: 0 };
  const percent = totalBytes > 0 ? Math.floor((completedBytes / totalBytes) * 100) : 0;
  const status = record?.status ?? 'QUEUED';
  const trouble = status === 'FAILED' || status === 'INCOMPLETE';

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
        {statusText[status]}
        {status === 'UPLOADING' ? ` ${percent}%` : ''}
      </span>
      {(status === 'UPLOADING' || status === 'QUEUED') && (
        <LinearProgress variant="determinate" value={percent} sx={{ mt: 1 }} />
      )}
    </Alert>
  );
}
