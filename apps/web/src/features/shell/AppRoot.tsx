import { Outlet } from 'react-router';
import { OfflineBanner } from './OfflineBanner';
import { SessionCountdown } from './SessionCountdown';

/** The root of every page: the page itself, the offline banner and the session countdown. */
export function AppRoot() {
  return (
    <>
      <Outlet />
      <OfflineBanner />
      <SessionCountdown />
    </>
  );
}
