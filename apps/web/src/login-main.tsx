import { createRoot } from 'react-dom/client';
import type { User } from '@filerunner/protocol';
import { AppFrame } from './app/AppFrame';
import { OfflineNotice } from './components/OfflineNotice';
import { LoginForm } from './features/auth/LoginForm';

// The login page opened from a link or typed in (login.html): the form with the theme and nothing
// of the app, which loads when the person signs in or follows a link to another page.

const element = document.getElementById('root');
if (!element) throw new Error('login.html has no #root element');
const root = createRoot(element);

let sessionExpires: number | null = null;
// The API client loads beside the first render, not before it: the form shows at once, and the
// client is in long before someone has typed an address and a password.
const signingIn = import('./features/auth/login-api').then(({ loginCall }) =>
  loginCall((expiresAt) => {
    sessionExpires = expiresAt;
  }),
);

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
        return signingIn.then((signIn) => signIn(body));
      }}
      onSignedIn={(user, to) => openApp(to, user)}
      navigate={(to) => void openApp(to)}
    />
    <OfflineNotice />
  </AppFrame>,
);
