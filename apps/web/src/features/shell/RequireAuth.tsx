import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { asApiError } from '../../app/api-client';
import { useAppSelector } from '../../app/hooks';
import { Splash } from '../../components/Splash';
import { useGetUserQuery } from '../auth/auth-api';
import { ErrorPage } from './ErrorPage';
import { loginRedirect } from './navigation';

/**
 * Renders its children for a signed-in user. Until the user has loaded it shows the splash;
 * then a missing user is sent to log in and back here, and a failed load shows the error page.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { user, signedOut } = useAppSelector((s) => s.auth);
  // Signed out is already known after a sign-out, or when the server said so: nothing to ask.
  const { isLoading, isError, error } = useGetUserQuery(undefined, { skip: signedOut });

  // A 4xx is the server saying there is no session (the user is forgotten, see the auth slice);
  // a fault or no answer at all says nothing about the session.
  const status = asApiError(error)?.status ?? 0;
  if (isError && !(status >= 400 && status < 500)) return <ErrorPage />;
  if (isLoading) return <Splash />;
  if (!user) return <Navigate to={loginRedirect(location.pathname + location.search)} replace />;
  return children;
}
