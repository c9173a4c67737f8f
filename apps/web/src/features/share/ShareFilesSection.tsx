import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { FileDropArea } from './FileDropArea';
import { problemRows } from './problem-files';
import { ProblemFilesDialog } from './ProblemFilesDialog';
import { SelectedFileList } from './SelectedFileList';
import type { useFileSelection } from './use-file-selection';

export interface ShareFilesSectionProps {
  files: ReturnType<typeof useFileSelection>;
  /** 'Please select some files', once the sender has tried to send without any. */
  error?: string;
  disabled?: boolean;
}

/**
 * The files of the package: the drop area and pickers, the list of what will be sent, and the
 * problem files, whose dialog opens by itself whenever an addition brings new ones (files left
 * out are only noted, and listed in the dialog).
 */
export function ShareFilesSection({ files, error, disabled }: ShareFilesSectionProps) {
  const { plan, selection } = files;
  const rows = useMemo(() => problemRows(plan), [plan]);
  const sent = useMemo(() => {
    const excluded = new Set(plan.excluded.map((e) => e.source.path));
    // In path order, so a folder's files are listed together whatever order they were read in.
    return selection.sources
      .filter((s) => !excluded.has(s.path))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }, [plan, selection.sources]);
  const problems = useMemo(
    () => new Map(plan.problemFiles.map((p) => [p.source.path, p.problems])),
    [plan],
  );

  const [open, setOpen] = useState(false);
  // New problem files ask for a decision; files left out (a folder's .DS_Store) are only noted.
  const problemCount = plan.problemFiles.length;
  const [seen, setSeen] = useState(0);
  if (problemCount !== seen) {
    setSeen(problemCount);
    if (problemCount > seen) setOpen(true);
  }

  const removeProblemFiles = () => {
    files.remove(new Set(plan.problemFiles.map((p) => p.source.path)));
    setOpen(false);
  };

  return (
    <Stack spacing={2}>
      <FileDropArea
        handlesAvailable={files.handlesAvailable}
        reading={files.reading}
        readCount={files.readCount}
        disabled={disabled}
        error={files.readError ?? error}
        onPickFiles={() => void files.pickFiles()}
        onPickFolder={() => void files.pickFolder()}
        onInput={(list) => void files.fromInput(list)}
        onDrop={(data) => void files.fromDrop(data)}
      />
      {rows.length > 0 && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => setOpen(true)}>
              Review
            </Button>
          }
        >
          {describeProblems(plan.problemFiles.length, plan.excluded.length)}
        </Alert>
      )}
      {sent.length > 0 && (
        <SelectedFileList
          files={sent}
          totalBytes={plan.totalBytes}
          problems={problems}
          onRemove={files.remove}
          disabled={disabled}
        />
      )}
      <ProblemFilesDialog
        open={open}
        rows={rows}
        onRemove={removeProblemFiles}
        onKeep={() => setOpen(false)}
      />
    </Stack>
  );
}

const filesText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'file' : 'files'}`;

function describeProblems(problemFiles: number, excluded: number): string {
  const parts: string[] = [];
  if (problemFiles > 0) {
    parts.push(
      `${filesText(problemFiles)} with problem names: some download options may be limited for recipients.`,
    );
  }
  if (excluded > 0)
    parts.push(`${filesText(excluded)} left out (system files or emoji in the name).`);
  return parts.join(' ');
}
