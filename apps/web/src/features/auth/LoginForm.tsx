import { useState, type FormEvent, type MouseEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { User } from '@filerunner/protocol';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { safeNext } from '../shell/navigation';
import { AuthSubmitButton } from './AuthSubmitButton';
import { SignInEmailField } from './SignInEmailField';
import { loginBanners, loginFailureMessage } from './login-messages';

export interface LoginFormProps {
  /** The page's query: `message` names a banner, `welcome` greets, `next` is where to go after. */
  search: URLSearchParams;
  /** Signs in with the server; rejects with the call's error. */
  signIn: (credentials: { email: string; password: string }) => Promise<User>;
  /** Opens `to` (a page of the app, never another site) for the user who just signed in. */
  onSignedIn: (user: User, to: string) => void | Promise<void>;
  /** Opens another page of the app (the forgotten-password page). */
  navigate: (to: string) => void;
}

type Progress = { state: 'Idle' | 'Loading' } | { state: 'Failed'; error: string };

/**
 * The sign-in form, without the router or the store: the login page opened from a link loads
 * only this and its fields, and the app's own login route wraps it (LoginPage).
 */
export function LoginForm({ search, signIn, onSignedIn, navigate }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [progress, setProgress] = useState<Progress>({ state: 'Idle' });

  const banner = loginBanners[search.get('message') ?? ''];
  const welcome = search.has('welcome');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProgress({ state: 'Loading' });
    let user: User;
    try {
      user = await signIn({ email: email.trim(), password });
    } catch (error) {
      setProgress({ state: 'Failed', error: loginFailureMessage(error) });
      return;
    }
    // The button stays busy while the app's first screen loads.
    await onSignedIn(user, safeNext(search.get('next')));
  };

  // A plain click stays in the page; a click asking for a new tab or window is the browser's.
  const forgotPassword = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate('/forgotpassword');
  };

  return (
    <AuthLayout title={welcome ? 'Welcome to FileRunner' : 'Log in to FileRunner'}>
      {banner && progress.state !== 'Failed' && <Alert severity="success">{banner}</Alert>}
      {progress.state === 'Failed' && <Alert severity="error">{progress.error}</Alert>}
      <Box component="form" onSubmit={submit} noValidate>
        <SignInEmailField value={email} onChange={setEmail} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <AuthSubmitButton
          sx={{ mt: 2 }}
          disabled={progress.state === 'Loading' || !email.trim() || !password}
        >
          Log in
        </AuthSubmitButton>
      </Box>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link href="/forgotpassword" onClick={forgotPassword}>
          Forgot your password?
        </Link>
      </Box>
    </AuthLayout>
  );
}
