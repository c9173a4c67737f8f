import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { listedNote, PROBLEM_LIST_LIMIT } from '../share/problem-files';
import { formatSize } from '@filerunner/protocol';

/** A file that did not make it: its path, and its size (an upload's) or why (a download's). */
export interface FailedFileLine {
  readonly path: string;
  readonly size?: number;
  readonly reason?: string;
}

/**
 * The files of a transfer that failed (an upload's after every retry, a download's that did not
 * land), the first 100 listed with the total.
 */
export function FailedFilesDialog(props: {
  open: boolean;
  packageName: string;
  files: readonly FailedFileLine[];
  onClose: () => void;
}) {
  const note = listedNote(props.files.length);
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="failed-files-title"
    >
      <DialogTitle id="failed-files-title">Files that failed in {props.packageName}</DialogTitle>
      <DialogContent>
        {note && (
          <Typography variant="body2" sx={{ mb: 1 }}>
            {note}
          </Typography>
        )}
        <List dense aria-label="Failed files">
          {props.files.slice(0, PROBLEM_LIST_LIMIT).map((file) => (
            <ListItem key={file.path} disableGutters>
              <ListItemText
                primary={file.path}
                secondary={file.reason ?? (file.size === undefined ? null : formatSize(file.size))}
                slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
