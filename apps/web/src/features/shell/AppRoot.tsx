import { Outlet } from 'react-router';
import { HiddenSettingsShortcuts } from '../hidden-settings/HiddenSettingsShortcuts';
import { UploadGuards } from '../transfers/UploadGuards';
import { OfflineBanner } from './OfflineBanner';
import { SessionCountdown } from './SessionCountdown';

/**
 * The root of every page: the page itself, the offline banner, the session countdown, the
 * guards of the page's uploads (they run whichever screen is shown) and the hidden settings'
 * shortcuts.
 */
export function AppRoot() {
  return (
    <>
      <Outlet />
      <OfflineBanner />
      <SessionCountdown />
      <UploadGuards />
      <HiddenSettingsShortcuts />
    </>
  );
}
