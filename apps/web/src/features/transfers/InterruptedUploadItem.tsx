import { useRef } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useAppDispatch } from '../../app/hooks';
import { formatSize } from '@filerunner/protocol';
import type { InterruptedUploadView } from './transfers-slice';
import {
  discardInterruptedUpload,
  resumeInterruptedFromPick,
  resumeInterruptedUpload,
} from './upload-actions';
import { UploadItemFrame } from './UploadItemFrame';

/** An `<input>` picks folders (their files with folder paths) only with this attribute set. */
const asFolderInput = (input: HTMLInputElement | null) => {
  input?.setAttribute('webkitdirectory', '');
};

const mismatchReason = { missing: 'not found', changed: 'changed since' } as const;
/** Files named at most, so a folder that lost thousands of files does not fill the panel. */
const MISMATCHES_SHOWN = 20;

/**
 * An upload an earlier page left unfinished (a reload, a closed tab, a crash). Files picked with
 * handles come back with Resume (the browser asks for read permission again); files from an
 * `<input>` are picked again, matched by path, size and date, and the ones that differ are
 * named. Either way only what storage does not have yet is sent. Discard gives it up.
 */
export function InterruptedUploadItem(props: { upload: InterruptedUploadView }) {
  const { upload } = props;
  const dispatch = useAppDispatch();
  const input = useRef<HTMLInputElement>(null);
  const pickLabel =
    upload.pickAgain === 'folder' ? 'Pick the same folder again' : 'Pick the same files again';

  const picked = (element: HTMLInputElement) => {
    const files = Array.from(element.files ?? []);
    // Cleared so that picking the same files again is noticed.
    element.value = '';
    if (files.length > 0) dispatch(resumeInterruptedFromPick(upload.id, files));
  };

  return (
    <UploadItemFrame
      id={`interrupted-${upload.id}`}
      name={upload.name}
      status="INTERRUPTED"
      statusLabel="Interrupted"
      statusColor="error.main"
    >
      <Typography variant="body2" color="text.secondary" data-testid="upload-figures">
        {`${upload.files.toLocaleString('en-US')} ${upload.files === 1 ? 'file' : 'files'} · ${formatSize(upload.bytes)}`}
      </Typography>
      {upload.problem && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {upload.problem}
          {upload.mismatched.length > 0 && (
            <Box component="ul" aria-label="Files that do not match" sx={{ m: 0, pl: 2 }}>
              {upload.mismatched.slice(0, MISMATCHES_SHOWN).map((file) => (
                <li key={file.path}>
                  {file.path}: {mismatchReason[file.reason]}
                </li>
              ))}
              {upload.mismatched.length > MISMATCHES_SHOWN && (
                <li>and {upload.mismatched.length - MISMATCHES_SHOWN} more</li>
              )}
            </Box>
          )}
        </Alert>
      )}
      <Box sx={{ mt: 1, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {upload.handles ? (
          <Button
            size="small"
            disabled={upload.resuming}
            onClick={() => void dispatch(resumeInterruptedUpload(upload.id))}
          >
            Resume
          </Button>
        ) : (
          <Button size="small" disabled={upload.resuming} onClick={() => input.current?.click()}>
            {pickLabel}
          </Button>
        )}
        <Button
          size="small"
          color="error"
          disabled={upload.resuming}
          onClick={() => void dispatch(discardInterruptedUpload(upload.id))}
        >
          Discard
        </Button>
      </Box>
      <input
        ref={(element) => {
          input.current = element;
          if (upload.pickAgain === 'folder') asFolderInput(element);
        }}
        type="file"
        multiple
        hidden
        aria-label={pickLabel}
        onChange={(event) => picked(event.currentTarget)}
      />
    </UploadItemFrame>
  );
}
