import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { messages } from '@filerunner/protocol';
import type { TokenCheckState } from './use-token-check';

/**
 * What the reset and activation pages show until the token is known to be good: 'Invalid URL',
 * 'Checking Token ...', or the reason it is invalid (with a way out when there is one).
 */
export function TokenCheckStatus(props: {
  state: TokenCheckState;
  error?: string;
  retryLink?: { to: string; label: string };
}) {
  if (props.state === 'UNCHECKED')
    return <Alert severity="error">{messages.reset.invalidUrl}</Alert>;
  if (props.state === 'CHECKING') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 3 }}>
        <CircularProgress size={24} />
        <Typography>Checking Token ...</Typography>
      </Box>
    );
  }
  return (
    <>
      <Alert severity="error">{props.error}</Alert>
      {props.retryLink && (
        <Button
          component={RouterLink}
          to={props.retryLink.to}
          variant="contained"
          fullWidth
          sx={{ mt: 3 }}
        >
          {props.retryLink.label}
        </Button>
      )}
    </>
  );
}
