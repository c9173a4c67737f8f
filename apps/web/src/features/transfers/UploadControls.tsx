import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { actionsOf, type UploadRecord } from '@filerunner/transfer';
import { useAppDispatch } from '../../app/hooks';
import { controlUpload } from './upload-actions';
import type { UploadControl } from './upload-controller';
import { RETRY_SPINNER_MS } from './upload-panel-model';

/**
 * The buttons an upload's status offers, as the engine's `actionsOf` says: Pause or Resume
 * (only online: offline the connection decides), Cancel, Retry, and Complete after a failure
 * (disabled until some file has arrived). Finalising and sent uploads offer none.
 */
export function UploadControls(props: { upload: UploadRecord; online: boolean }) {
  const { upload, online } = props;
  const dispatch = useAppDispatch();
  const [retryPressed, setRetryPressed] = useState(false);

  useEffect(() => {
    if (!retryPressed) return;
    const timer = setTimeout(() => {
      setRetryPressed(false);
      dispatch(controlUpload(upload.id, 'retry'));
    }, RETRY_SPINNER_MS);
    return () => clearTimeout(timer);
  }, [retryPressed, dispatch, upload.id]);

  if (retryPressed) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={18} aria-hidden />
        <Typography variant="body2">Retrying</Typography>
      </Box>
    );
  }

  const actions = actionsOf(upload);
  const send = (control: UploadControl) => () => dispatch(controlUpload(upload.id, control));
  const buttons = [
    online && actions.pause && (
      <Button key="pause" size="small" onClick={send('pause')}>
        Pause
      </Button>
    ),
    online && actions.resume && (
      <Button key="resume" size="small" onClick={send('resume')}>
        Resume
      </Button>
    ),
    actions.retry && (
      <Button key="retry" size="small" onClick={() => setRetryPressed(true)}>
        Retry
      </Button>
    ),
    // Offered on every failure, so the person sees the choice exists even before it applies.
    upload.status === 'FAILED' && (
      <Button key="complete" size="small" disabled={!actions.complete} onClick={send('complete')}>
        Complete
      </Button>
    ),
    actions.cancel && (
      <Button key="cancel" size="small" color="error" onClick={send('cancel')}>
        Cancel
      </Button>
    ),
  ].filter(Boolean);
  if (buttons.length === 0) return null;
  return <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{buttons}</Box>;
}
