import { startTransition } from 'react';
import type { Root } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import type { User } from '@filerunner/protocol';
import { keepAnsweredUser } from '../features/auth/auth-api';
import { sessionExpiresReceived } from '../features/auth/auth-slice';
import { AppFrame } from './AppFrame';
import { appRouter } from './router';
import { store } from './store';

/** Someone who signed in on the login page before the app was loaded. */
export interface SignedIn {
  user: User;
  /** When the new session ends (epoch ms), if its answer said. */
  sessionExpires: number | null;
}

/**
 * Renders the app into `root`. The login page loaded on its own hands over with the page to open
 * (`to`) and, after a sign-in, the user: the router opens that page before anything is drawn, so
 * the login form stays until the screen is ready.
 */
export async function startApp(root: Root, handover?: { to: string; signedIn?: SignedIn }) {
  const router = appRouter();
  if (handover) {
    const { signedIn, to } = handover;
    if (signedIn) {
      keepAnsweredUser(signedIn.user, undefined, store.dispatch);
      if (signedIn.sessionExpires !== null) {
        store.dispatch(sessionExpiresReceived(signedIn.sessionExpires));
      }
    }
    await router.navigate(to, { replace: true });
  }
  // As a transition React renders the first screen in slices, yielding to input between them,
  // and keeps what is shown (the brand, or the login form after a sign-in) until it is ready.
  startTransition(() =>
    root.render(
      <AppFrame>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </AppFrame>,
    ),
  );
}
