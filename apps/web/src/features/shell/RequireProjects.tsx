import { useDeferredValue, type ReactNode } from 'react';
import { Splash } from '../../components/Splash';
import { useBrandingsQuery } from '../branding/branding-api';
import { useContractsQuery } from '../projects/projects-api';
import { ErrorPage } from './ErrorPage';
import { NoActiveProjectsPage } from './NoActiveProjectsPage';

/**
 * Renders its children once the user's projects are known and there is at least one; loads the
 * projects' brandings alongside.
 */
export function RequireProjects({ children }: { children: ReactNode }) {
  const { data, isError } = useContractsQuery();
  // The whole shell mounts when the projects arrive. An answer from the store renders at once, in
  // one task; the deferred value lets React mount the shell in slices instead, so that a slow
  // phone answers a tap meanwhile. The splash stays up until it is done.
  const contracts = useDeferredValue(data);

  // Brandings only restyle avatars and logos, so the shell does not wait for them; without
  // them (a failed load) the shell shows the default avatars.
  useBrandingsQuery();

  // Once loaded, the shell stays up: a later reload that fails keeps the list it has.
  if (!contracts) return isError ? <ErrorPage /> : <Splash />;
  if (contracts.length === 0) return <NoActiveProjectsPage />;
  return children;
}
