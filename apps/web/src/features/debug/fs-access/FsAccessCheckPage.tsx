import { useRef, useState, type DragEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import { defaultFilesystemConstraints } from '@filerunner/protocol';
import { useFilesystemConstraints } from '../../filesystem/filesystem-api';
import { DebugLayout } from '../DebugLayout';
import {
  fsAccessTexts,
  MAX_RESULTS,
  namesOfDrop,
  namesOfPicked,
  testFilename,
  type FsTestResult,
} from './fs-access-check';

// Chromium's directory picker, which TypeScript's DOM library does not declare yet.
interface DirectoryPickerWindow {
  showDirectoryPicker(options?: {
    mode?: 'read' | 'readwrite';
  }): Promise<FileSystemDirectoryHandle>;
}

/** An `<input>` picks folders (their files with folder paths) only with this attribute set. */
const asFolderInput = (input: HTMLInputElement | null) => {
  input?.setAttribute('webkitdirectory', '');
};

/**
 * /debug/fs-access-check: which file names this computer can write, and which the product
 * refuses, for support staff working out with a person why a download failed on some names.
 */
export function FsAccessCheckPage() {
  const { constraints } = useFilesystemConstraints();
  const [directory, setDirectory] = useState<FileSystemDirectoryHandle | null>(null);
  const [selectError, setSelectError] = useState<string | null>(null);
  const [filename, setFilename] = useState('');
  const [blank, setBlank] = useState(false);
  const [results, setResults] = useState<FsTestResult[]>([]);
  const [testing, setTesting] = useState(false);
  const [over, setOver] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // Names are tested one after another, so two tests of one name never race in the folder.
  const queue = useRef<Promise<void>>(Promise.resolve());

  const selectDirectory = async () => {
    try {
      const picker = window as unknown as DirectoryPickerWindow;
      setDirectory(await picker.showDirectoryPicker({ mode: 'readwrite' }));
      setSelectError(null);
    } catch (error) {
      // Closing the picker is a change of mind, not a failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      setSelectError(fsAccessTexts.selectFailed);
    }
  };

  const test = (names: readonly string[]) => {
    if (!directory || names.length === 0) return;
    // Only the newest results are shown, so a large folder is not written in full.
    const batch = [...new Set(names)].slice(0, MAX_RESULTS);
    setTesting(true);
    queue.current = queue.current.then(async () => {
      for (const name of batch) {
        // Before the served (or last cached) constraints arrive, the ones the server ships with.
        const result = await testFilename(
          name,
          constraints ?? defaultFilesystemConstraints,
          directory,
        );
        setResults((before) => [result, ...before].slice(0, MAX_RESULTS));
      }
      setTesting(false);
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (filename.trim() === '') {
      setBlank(true);
      return;
    }
    test([filename]);
    setFilename('');
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    test(namesOfDrop(event.dataTransfer));
  };

  const fromInput = (input: HTMLInputElement) => {
    test(namesOfPicked(Array.from(input.files ?? [])));
    // Cleared so that picking the same files again is noticed.
    input.value = '';
  };

  return (
    <DebugLayout title="File-system access check">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Pick a folder, then test file names: each is checked against the names FileRunner accepts
        and by creating (then removing) a file of that name in the folder.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button
          variant="contained"
          startIcon={<FolderOpenIcon />}
          onClick={() => void selectDirectory()}
        >
          {directory ? 'Change directory' : 'Select directory'}
        </Button>
        <Typography data-testid="selected-directory">
          {directory ? `Directory: ${directory.name}` : fsAccessTexts.noDirectory}
        </Typography>
      </Stack>
      {selectError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {selectError}
        </Alert>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mb: 2 }}
      >
        <TextField
          label="File name"
          value={filename}
          disabled={!directory}
          error={blank}
          helperText={blank ? fsAccessTexts.blank : ' '}
          onChange={(event) => {
            setFilename(event.target.value);
            setBlank(false);
          }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="outlined" disabled={!directory} sx={{ height: 56 }}>
          Test
        </Button>
      </Box>
      <Box
        data-testid="fs-drop-area"
        onDragOver={(event) => {
          event.preventDefault();
          if (directory) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: over ? 'primary.main' : 'divider',
          bgcolor: over ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: 3,
          mb: 3,
          textAlign: 'center',
        }}
      >
        <Typography sx={{ mb: 2 }}>Drop files or folders here to test their names</Typography>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
          <Button
            variant="outlined"
            disabled={!directory}
            onClick={() => filesInput.current?.click()}
          >
            Pick files
          </Button>
          <Button
            variant="outlined"
            disabled={!directory}
            onClick={() => folderInput.current?.click()}
          >
            Pick folder
          </Button>
        </Stack>
        <input
          ref={filesInput}
          type="file"
          multiple
          hidden
          aria-label="Files to test"
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
          aria-label="Folder to test"
          onChange={(e) => fromInput(e.currentTarget)}
        />
      </Box>
      <Typography variant="h6" component="h2">
        Results
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {testing ? 'Testing…' : `The last ${MAX_RESULTS} names tested, newest first.`}
      </Typography>
      <Paper variant="outlined" sx={{ mt: 1 }}>
        <List aria-label="Results" data-testid="fs-results">
          {results.length === 0 && (
            <ListItem>
              <ListItemText secondary="No names tested yet." />
            </ListItem>
          )}
          {results.map((result, i) => (
            <ListItem key={`${results.length - i}-${result.filename}`} divider>
              <Chip
                size="small"
                color={result.success ? 'success' : 'error'}
                label={result.success ? fsAccessTexts.allowed : fsAccessTexts.invalid}
                sx={{ mr: 2, minWidth: 72 }}
              />
              <ListItemText
                primary={result.filename}
                secondary={result.error}
                slotProps={{
                  primary: { sx: { wordBreak: 'break-all' } },
                  secondary: { sx: { whiteSpace: 'pre-line' } },
                }}
              />
            </ListItem>
          ))}
        </List>
      </Paper>
    </DebugLayout>
  );
}
