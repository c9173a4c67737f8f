import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type DataRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { Splash } from '../components/Splash';
import { AppRoot } from '../features/shell/AppRoot';
import { BRANDING_PREFIX } from '../features/shell/navigation';
import { ErrorPage } from '../features/shell/ErrorPage';
import { NotFoundPage } from '../features/shell/NotFoundPage';
import { RequirePermission } from '../features/shell/RequirePermission';
import { RouteErrorPage } from '../features/shell/RouteErrorPage';

/**
 * A route whose screen is loaded when first matched (the router waits for it, so nothing
 * flashes): a page opened from a mailed link downloads its own code and the shell's, never the
 * other screens'. Only the login page, where most visits start, is in the first bundle.
 */
function page<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] }) };
}

/**
 * A screen loaded on first visit: the admin screens and the profile are kept out of the bundle
 * every user downloads at the login page.
 */
function onDemand<K extends string>(load: () => Promise<Record<K, () => ReactNode>>, name: K) {
  const Screen = lazy(async () => {
    const screen: () => ReactNode = (await load())[name];
    return { default: screen };
  });
  return (
    <Suspense fallback={null}>
      <Screen />
    </Suspense>
  );
}

const admin = (element: ReactNode) => (
  <RequirePermission permission="admin">{element}</RequirePermission>
);

/** The screens of the shell, relative so they mount both at / and under /branding. */
const mainScreens: RouteObject[] = [
  { index: true, element: <Navigate to="inbox" replace /> },
  { path: 'inbox/:slug?', ...page(() => import('../features/inbox/InboxPage'), 'InboxPage') },
  { path: 'sent/:slug?', ...page(() => import('../features/sent/SentPage'), 'SentPage') },
  {
    path: 'share',
    element: (
      <RequirePermission permission="send">
        {onDemand(() => import('../features/share/SharePage'), 'SharePage')}
      </RequirePermission>
    ),
  },
  {
    path: 'activity',
    element: admin(onDemand(() => import('../features/activity/ActivityPage'), 'ActivityPage')),
  },
  {
    path: 'users',
    element: admin(onDemand(() => import('../features/users/UsersPage'), 'UsersPage')),
  },
  {
    path: 'settings/:slug?/:tab?',
    element: admin(onDemand(() => import('../features/settings/SettingsPage'), 'SettingsPage')),
  },
  {
    path: 'profile/:tab?',
    element: onDemand(() => import('../features/profile/ProfilePage'), 'ProfilePage'),
  },
];

export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    // While the first screen's code loads (a mailed link straight to a page), the brand stays up.
    hydrateFallbackElement: <Splash />,
    children: [
      { path: 'login', element: <LoginPage /> },
      {
        path: 'forgotpassword',
        ...page(() => import('../features/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
      },
      {
        path: 'resetpassword/:uid?/:token?',
        ...page(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage'),
      },
      {
        path: 'activate/:uid?/:token?',
        ...page(() => import('../features/auth/ActivatePage'), 'ActivatePage'),
      },
      { path: 'error', element: <ErrorPage /> },
      { path: 'help', ...page(() => import('../features/help/HelpPage'), 'HelpPage') },
      {
        path: 'inbox/external/:slug?',
        ...page(() => import('../features/external/ExternalPackageRoute'), 'ExternalPackageRoute'),
      },
      { path: 'debug', ...page(() => import('../features/debug/DebugPage'), 'DebugPage') },
      {
        path: 'debug/latency',
        // Its own chunk: the chart library is loaded by this page alone.
        ...page(() => import('../features/debug/latency/LatencyPage'), 'LatencyPage'),
      },
      {
        path: 'debug/fs-access-check',
        ...page(() => import('../features/debug/fs-access/FsAccessCheckPage'), 'FsAccessCheckPage'),
      },
      { path: 'debug/download', ...page(() => import('./debug-routes'), 'DownloadTool') },
      { path: 'debug/preflight', ...page(() => import('./debug-routes'), 'PreflightTool') },
      {
        ...page(() => import('./signed-in-shell'), 'SignedInShell'),
        children: [...mainScreens, { path: BRANDING_PREFIX.slice(1), children: mainScreens }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

let router: DataRouter | undefined;

/**
 * The app's one router, made on first call: making it matches the address and starts loading the
 * first screen's code, a step of the app's start of its own (main.tsx).
 */
export function appRouter(): DataRouter {
  router ??= createBrowserRouter(routes);
  return router;
}
