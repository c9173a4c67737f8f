import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useAppSelector } from '../../app/hooks';
import { AuthLayout } from '../../components/AuthLayout';
import { OutlinedField } from '../../components/OutlinedField';
import { PasswordField } from '../../components/PasswordField';
import { safeNext } from '../shell/navigation';
import { useAuthenticateMutation } from './auth-api';
import { loginBanners } from './login-messages';

export function LoginPage() {
  const [authenticate] = useAuthenticateMutation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { status, loginError } = useAppSelector((s) => s.auth);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const banner = loginBanners[params.get('message') ?? ''];
  const welcome = params.has('welcome');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The form's progress and failure message are kept by the auth slice.
    const result = await authenticate({ body: { email: email.trim(), password } });
    if (!result.error) navigate(safeNext(params.get('next')), { replace: true });
  };

  return (
    <AuthLayout title={welcome ? 'Welcome to FileRunner' : 'Log in to FileRunner'}>
      {banner && status !== 'Failed' && <Alert severity="success">{banner}</Alert>}
      {status === 'Failed' && loginError && <Alert severity="error">{loginError}</Alert>}
      <Box component="form" onSubmit={submit} noValidate>
        <OutlinedField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          disabled={status === 'Loading' || !email.trim() || !password}
        >
          Log in
        </Button>
      </Box>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/forgotpassword">
          Forgot your password?
        </Link>
      </Box>
    </AuthLayout>
  );
}
