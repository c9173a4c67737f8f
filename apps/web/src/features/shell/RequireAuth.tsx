import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Splash } from '../../components/Splash';
import { loadUser } from '../auth/auth-slice';
import { ErrorPage } from './ErrorPage';
import { loginRedirect } from './navigation';

/**
 * Renders its children for a signed-in user. Until the user has loaded it shows the splash;
 * then a missing user is sent to log in and back here, and a failed load shows the error page.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const { user, userLoad, userLoadFailed } = useAppSelector((s) => s.auth);

  useEffect(() => {
    if (userLoad === 'idle') void dispatch(loadUser());
  }, [dispatch, userLoad]);

  if (userLoadFailed) return <ErrorPage />;
  if (userLoad === 'idle' || userLoad === 'pending') return <Splash />;
  if (!user) return <Navigate to={loginRedirect(location.pathname + location.search)} replace />;
  return children;
}
