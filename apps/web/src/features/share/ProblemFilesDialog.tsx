import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  listedNote,
  problemCsv,
  problemTexts,
  PROBLEM_LIST_LIMIT,
  type ProblemRow,
} from './problem-files';

/** The copy confirmation stays this long in this dialog. */
const COPIED_MS = 5000;

export interface ProblemFilesDialogProps {
  open: boolean;
  rows: readonly ProblemRow[];
  /** Takes the problem files out of the selection (excluded files are never sent anyway). */
  onRemove: () => void;
  onKeep: () => void;
}

/**
 * The files whose names break the filename constraints, and those left out, listed up to 100
 * with the total; the whole list copies as CSV. Problem files can be removed or kept.
 */
export function ProblemFilesDialog(props: ProblemFilesDialogProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(problemCsv(props.rows));
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  const note = listedNote(props.rows.length);
  const removable = props.rows.some((r) => r.type === 'Invalid filename');

  return (
    <Dialog open={props.open} onClose={props.onKeep} fullWidth maxWidth="md">
      <DialogTitle>{problemTexts.title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {problemTexts.warning}
        </Alert>
        {note && (
          <Typography variant="body2" sx={{ mb: 1 }} data-testid="problem-files-note">
            {note}
          </Typography>
        )}
        <Table size="small" aria-label="Problem files">
          <TableHead>
            <TableRow>
              <TableCell>Type</TableCell>
              <TableCell>Filename</TableCell>
              <TableCell>Filepath</TableCell>
              <TableCell>Description</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {props.rows.slice(0, PROBLEM_LIST_LIMIT).map((row) => (
              <TableRow key={`${row.type}:${row.filepath}`}>
                <TableCell>{row.type}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{row.filename}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{row.filepath}</TableCell>
                <TableCell>{row.description}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        {copied && (
          <Typography
            role="status"
            variant="body2"
            color={copied === 'yes' ? 'success.main' : 'error'}
            sx={{ mr: 'auto', ml: 2 }}
          >
            {copied === 'yes' ? problemTexts.copied : 'Copying failed'}
          </Typography>
        )}
        <Button onClick={() => void copy()}>Copy as CSV</Button>
        {removable && (
          <Button color="warning" onClick={props.onRemove}>
            Remove problem files
          </Button>
        )}
        <Button variant="contained" onClick={props.onKeep}>
          {removable ? 'Keep files' : 'Close'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
