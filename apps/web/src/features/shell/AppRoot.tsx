import { Outlet } from 'react-router';
import { UploadGuards } from '../transfers/UploadGuards';
import { LoggedOutDialog } from './LoggedOutDialog';
import { OfflineBanner } from './OfflineBanner';
import { SessionCountdown } from './SessionCountdown';

/**
 * The root of every page of the app: the page itself, the offline banner, the session countdown,
 * the dialog of a session ended elsewhere and the guards of the page's uploads (they run whichever screen is shown). The hidden settings'
 * shortcuts are a level up, in AppFrame, which the login page shares.
 */
export function AppRoot() {
  return (
    <>
      <Outlet />
      <OfflineBanner />
      <SessionCountdown />
      <LoggedOutDialog />
      <UploadGuards />
    </>
  );
}
