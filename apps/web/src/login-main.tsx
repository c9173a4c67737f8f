import { createRoot } from 'react-dom/client';
import { accountRoutes, type User } from '@filerunner/protocol';
import { createApiClient } from './app/api-client';
import { AppFrame } from './app/AppFrame';
import { OfflineNotice } from './components/OfflineNotice';
import { LoginForm } from './features/auth/LoginForm';

// The login page opened from a link or typed in (login.html): the form with the theme and nothing
// of the app, which loads when the person signs in or follows a link to another page.

const element = document.getElementById('root');
if (!element) throw new Error('login.html has no #root element');
const root = createRoot(element);

let sessionExpires: number | null = null;
const api = createApiClient({
  clientVersion: __APP_VERSION__,
  onSessionExpires: (expiresAt) => {
    sessionExpires = expiresAt;
  },
});

const loadApp = () => import('./app/start-app');

/** Hands the page over to the app, at `to`, with the user who just signed in if any. */
async function openApp(to: string, user?: User) {
  const { startApp } = await loadApp();
  await startApp(root, { to, ...(user ? { signedIn: { user, sessionExpires } } : {}) });
}

root.render(
  <AppFrame>
    <LoginForm
      search={new URLSearchParams(window.location.search)}
      signIn={(body) => {
        // The app's code downloads while the server checks the password.
        void loadApp();
        return api.call(accountRoutes.authenticate, { body });
      }}
      onSignedIn={(user, to) => openApp(to, user)}
      navigate={(to) => void openApp(to)}
    />
    <OfflineNotice />
  </AppFrame>,
);
