import { useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';

export interface FileDropAreaProps {
  /** Whether the browser's own pickers (with handles) are used instead of the inputs. */
  handlesAvailable: boolean;
  reading: boolean;
  /** Files read so far of a large pick, while it is read. */
  readCount?: { read: number; total: number } | null;
  disabled?: boolean;
  error?: string | null;
  onPickFiles: () => void;
  onPickFolder: () => void;
  onInput: (files: File[]) => void;
  onDrop: (data: DataTransfer) => void;
}

/** An `<input>` picks folders (their files with folder paths) only with this attribute set. */
const asFolderInput = (input: HTMLInputElement | null) => {
  input?.setAttribute('webkitdirectory', '');
};

/**
 * Where files and folders are added: dropped, or chosen with Add files / Add folder. In
 * Chromium the buttons open the File System Access pickers, whose handles let an upload resume
 * after a reload; elsewhere they open file inputs, which stay in the page either way.
 */
export function FileDropArea(props: FileDropAreaProps) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!props.disabled) setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!props.disabled) props.onDrop(event.dataTransfer);
  };
  const fromInput = (input: HTMLInputElement) => {
    if (input.files?.length) props.onInput(Array.from(input.files));
    // Cleared so that picking the same files again is noticed.
    input.value = '';
  };

  return (
    <Box
      data-testid="file-drop-area"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : props.error ? 'error.main' : 'divider',
        bgcolor: over ? 'action.hover' : 'transparent',
        borderRadius: 2,
        p: 3,
        textAlign: 'center',
      }}
    >
      <Typography sx={{ mb: 2 }}>Drop files or folders here</Typography>
      <Stack sx={{ justifyContent: 'center' }} direction="row" spacing={2}>
        <Button
          variant="outlined"
          startIcon={<NoteAddOutlinedIcon />}
          disabled={props.disabled || props.reading}
          onClick={() =>
            props.handlesAvailable ? props.onPickFiles() : filesInput.current?.click()
          }
        >
          Add files
        </Button>
        <Button
          variant="outlined"
          startIcon={<CreateNewFolderOutlinedIcon />}
          disabled={props.disabled || props.reading}
          onClick={() =>
            props.handlesAvailable ? props.onPickFolder() : folderInput.current?.click()
          }
        >
          Add folder
        </Button>
      </Stack>
      {props.reading && (
        <Stack
          direction="row"
          spacing={1}

          sx={{ alignItems: 'center', justifyContent: 'center', mt: 2 }}
        >
          <CircularProgress size={16} />
          <Typography variant="body2">
            {props.readCount
              ? `Reading files… ${props.readCount.read.toLocaleString('en-US')} of ${props.readCount.total.toLocaleString('en-US')}`
              : 'Reading files…'}
          </Typography>
        </Stack>
      )}
      {props.error && (
        <Typography color="error" variant="body2" sx={{ mt: 2 }}>
          {props.error}
        </Typography>
      )}
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-label="Files to send"
        onChange={(e) => fromInput(e.currentTarget)}
      />
      <input
        ref={(input) => {
          folderInput.current = input;
          asFolderInput(input);
        }}
        type="file"
        multiple
        hidden
        aria-label="Folder to send"
        onChange={(e) => fromInput(e.currentTarget)}
      />
    </Box>
  );
}
