import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { logout } from '../auth/auth-api';

/**
 * Signs out: go to the login page first, then end the session and clear the client state. The
 * navigation is flushed at once (not left to a transition) so the shell is gone before the state
 * is cleared; otherwise its own "not signed in" redirect would add a `next` back to it.
 */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    navigate('/login', { replace: true, flushSync: true });
    void dispatch(logout());
  }, [dispatch, navigate]);
}
