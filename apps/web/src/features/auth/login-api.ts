import { accountRoutes } from '@filerunner/protocol';
import { createApiClient } from '../../app/api-client';

/**
 * The login page's one call, on the app's API client. The page imports this beside its first
 * render rather than before it, so the form shows without waiting for the client.
 */
export function loginCall(onSessionExpires: (expiresAt: number) => void) {
  const api = createApiClient({ clientVersion: __APP_VERSION__, onSessionExpires });
  return (body: { email: string; password: string }) =>
    api.call(accountRoutes.authenticate, { body });
}
