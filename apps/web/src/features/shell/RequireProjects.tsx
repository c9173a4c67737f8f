import { useEffect, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Splash } from '../../components/Splash';
import { loadBrandings } from '../branding/branding-slice';
import { loadContracts } from '../projects/projects-slice';
import { ErrorPage } from './ErrorPage';
import { NoActiveProjectsPage } from './NoActiveProjectsPage';

/**
 * Renders its children once the user's projects are known and there is at least one; loads the
 * projects' brandings alongside.
 */
export function RequireProjects({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const { status, contracts } = useAppSelector((s) => s.projects);
  const brandingStatus = useAppSelector((s) => s.branding.status);

  useEffect(() => {
    if (status === 'idle') void dispatch(loadContracts());
  }, [dispatch, status]);

  // Brandings only restyle avatars and logos, so the shell does not wait for them.
  useEffect(() => {
    if (brandingStatus === 'idle') void dispatch(loadBrandings());
  }, [dispatch, brandingStatus]);

  if (status === 'rejected') return <ErrorPage />;
  if (status !== 'fulfilled') return <Splash />;
  if (contracts.length === 0) return <NoActiveProjectsPage />;
  return children;
}
