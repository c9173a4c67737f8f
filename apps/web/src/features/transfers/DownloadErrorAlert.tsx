import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useAppDispatch } from '../../app/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useHelpUrl } from '../help/help-api';
import { retryDownload } from './download-actions';
import { downloadErrorText, partialFailureText } from './download-messages';
import type { DownloadRecord } from './downloads-slice';
import { FailedFilesDialog } from './FailedFilesDialog';

/**
 * What went wrong with a download, in the error class's words with its own ways out (help, the
 * `.tar` instead): a refusal in the server's words; files that failed, a warning with their list
 * (an error when none arrived). Another folder and the browser's download are the status's
 * buttons below, so they are not repeated here.
 */
export function DownloadErrorAlert(props: { download: DownloadRecord }) {
  const { download } = props;
  const dispatch = useAppDispatch();
  const helpUrl = useHelpUrl();
  const [viewing, setViewing] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const { error, failedFiles, status } = download;
  if (status !== 'FAILED' && status !== 'PARTIALLY_FAILED') return null;

  const text =
    error && error.kind !== 'refused' && error.kind !== 'interrupted'
      ? downloadErrorText(error.kind, { singleFile: download.packageFile !== null })
      : null;
  const severity = status === 'PARTIALLY_FAILED' ? 'warning' : (text?.severity ?? 'error');
  // Files in the way are named in the message the runner wrote.
  const message =
    status === 'PARTIALLY_FAILED'
      ? partialFailureText(failedFiles.length)
      : error?.kind === 'occupied'
        ? error.message
        : (text?.message ?? error?.message);
  const actions = status === 'PARTIALLY_FAILED' ? [] : (text?.actions ?? []);

  return (
    <>
      <Alert severity={severity} sx={{ mt: 1 }} data-error-class={text?.name}>
        {message}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
          {failedFiles.length > 0 && (
            <Button color="inherit" size="small" onClick={() => setViewing(true)}>
              View files
            </Button>
          )}
          {actions.includes('help') && (
            <Button color="inherit" size="small" href={helpUrl} target="_blank" rel="noopener">
              Help
            </Button>
          )}
          {actions.includes('replaceFiles') && (
            <Button color="inherit" size="small" onClick={() => setReplacing(true)}>
              Replace files
            </Button>
          )}
          {actions.includes('downloadAsTar') && (
            <Button
              color="inherit"
              size="small"
              onClick={() => dispatch(retryDownload(download.identifier, { kind: 'tar' }))}
            >
              Download as .tar
            </Button>
          )}
        </Box>
      </Alert>
      {actions.includes('replaceFiles') && (
        <ConfirmDialog
          open={replacing}
          title="Replace files?"
          confirmLabel="Replace"
          destructive
          onCancel={() => setReplacing(false)}
          onConfirm={() => {
            setReplacing(false);
            dispatch(retryDownload(download.identifier, { kind: 'replace' }));
          }}
        >
          The files in this folder with the same names as the package’s are replaced by the
          package’s files. This cannot be undone.
        </ConfirmDialog>
      )}
      {failedFiles.length > 0 && (
        <FailedFilesDialog
          open={viewing}
          packageName={download.receivedPackage}
          files={failedFiles.map((file) => ({ path: file.path, reason: file.message }))}
          onClose={() => setViewing(false)}
        />
      )}
    </>
  );
}
