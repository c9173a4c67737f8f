import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ActivityPage } from '../features/activity/ActivityPage';
import { ActivatePage } from '../features/auth/ActivatePage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { DebugPage } from '../features/debug/DebugPage';
import { DebugToolPage } from '../features/debug/DebugToolPage';
import { ExternalPackagePage } from '../features/external/ExternalPackagePage';
import { InboxPage } from '../features/inbox/InboxPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { SentPage } from '../features/sent/SentPage';
import { SettingsPage } from '../features/settings/SettingsPage';
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
import { UsersPage } from '../features/users/UsersPage';

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
  { path: 'activity', element: admin(<ActivityPage />) },
  { path: 'users', element: admin(<UsersPage />) },
  { path: 'settings/:slug?/:tab?', element: admin(<SettingsPage />) },
  { path: 'profile/:tab?', element: <ProfilePage /> },
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
