import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useAppSelector } from '../../app/hooks';
import { useSessionMarker } from './session-marker';

/**
 * Shown while the session is lost with uploads under way (see the auth slice's `sessionLost`).
 * It cannot be dismissed: the page must stay as it is for its paused uploads to go on, which
 * they do by themselves once the person logs in again, in the tab this button opens.
 */
export function LoggedOutDialog() {
  useSessionMarker();
  const open = useAppSelector((s) => s.auth.sessionLost);
  return (
    // No onClose: neither Escape nor a click beside it closes it.
    <Dialog open={open} aria-labelledby="logged-out-title" aria-describedby="logged-out-text">
      <DialogTitle id="logged-out-title">You've been logged out</DialogTitle>
      <DialogContent>
        <DialogContentText id="logged-out-text" sx={{ fontWeight: 600 }}>
          Do not refresh this page
        </DialogContentText>
        <DialogContentText sx={{ mt: 1 }}>
          Your upload has been paused. It resumes by itself when you log in again.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => window.open('/login', '_blank', 'noopener')}>
          Go to login page
        </Button>
      </DialogActions>
    </Dialog>
  );
}
