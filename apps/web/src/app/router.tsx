import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ActivatePage } from '../features/auth/ActivatePage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { DebugPage } from '../features/debug/DebugPage';
import { DebugToolPage } from '../features/debug/DebugToolPage';
import { ExternalPackagePage } from '../features/external/ExternalPackagePage';
import { InboxPage } from '../features/inbox/InboxPage';
import { SentPage } from '../features/sent/SentPage';
import { SharePage } from '../features/share/SharePage';
import { AppRoot } from '../features/shell/AppRoot';
import { BRANDING_PREFIX } from '../features/shell/navigation';
import { ErrorPage } from '../features/shell/ErrorPage';
import { NotFoundPage } from '../features/shell/NotFoundPage';
import { RequireAuth } from '../features/shell/RequireAuth';
import { RequirePermission } from '../features/shell/RequirePermission';
import { RequireProjects } from '../features/shell/RequireProjects';
import { RouteErrorPage } from '../features/shell/RouteErrorPage';
import { ShellLayout } from '../features/shell/ShellLayout';

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
  { path: 'inbox/:slug?', element: <InboxPage /> },
  { path: 'sent/:slug?', element: <SentPage /> },
  {
    path: 'share',
    element: (
      <RequirePermission permission="send">
        <SharePage />
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
    children: [
      { path: 'login', element: <LoginPage /> },
      { path: 'forgotpassword', element: <ForgotPasswordPage /> },
      { path: 'resetpassword/:uid?/:token?', element: <ResetPasswordPage /> },
      { path: 'activate/:uid?/:token?', element: <ActivatePage /> },
      { path: 'error', element: <ErrorPage /> },
      { path: 'inbox/external/:slug?', element: <ExternalPackagePage /> },
      { path: 'debug', element: <DebugPage /> },
      { path: 'debug/latency', element: <DebugToolPage path="/debug/latency" /> },
      { path: 'debug/fs-access-check', element: <DebugToolPage path="/debug/fs-access-check" /> },
      {
        path: 'debug/download',
        element: (
          <RequireAuth>
            <DebugToolPage path="/debug/download" />
          </RequireAuth>
        ),
      },
      {
        element: (
          <RequireAuth>
            <RequireProjects>
              <ShellLayout />
            </RequireProjects>
          </RequireAuth>
        ),
        children: [...mainScreens, { path: BRANDING_PREFIX.slice(1), children: mainScreens }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
