import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { forgetSession, useExtendSessionMutation } from '../auth/auth-api';
import {
  extendMeansSignedOut,
  secondsLeft,
  sessionWarningText,
  shouldWarn,
} from './session-countdown';

/**
 * Counts down to the session's end (from the answers' Expires header), checked every second:
 * offers to extend it in the last 1800 s, and once it has ended (or an extend is refused because
 * it reached its maximum age) clears the client state and goes to the login page after 100 ms.
 */
export function SessionCountdown() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [extendSession] = useExtendSessionMutation();
  const expiresAt = useAppSelector((s) => (s.auth.user ? s.auth.sessionExpires : null));
  const [now, setNow] = useState(() => Date.now());

  const signOut = useCallback(() => {
    dispatch(forgetSession());
    window.setTimeout(() => navigate('/login', { replace: true }), 100);
  }, [dispatch, navigate]);

  useEffect(() => {
    if (expiresAt === null) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (secondsLeft(expiresAt, current) === 0) {
        window.clearInterval(timer);
        signOut();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt, signOut]);

  const seconds = secondsLeft(expiresAt, now);
  if (seconds === null || !shouldWarn(seconds)) return null;

  const extend = () =>
    void extendSession().then((result) => {
      if ('error' in result && extendMeansSignedOut(result.error)) signOut();
    });
  return (
    <Snackbar open anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
      <Alert
        severity="warning"
        variant="filled"
        role="button"
        tabIndex={0}
        onClick={extend}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') extend();
        }}
        sx={{ cursor: 'pointer' }}
      >
        {sessionWarningText(seconds)}
      </Alert>
    </Snackbar>
  );
}
