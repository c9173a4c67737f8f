import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { messages } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { AuthLayout } from '../../components/AuthLayout';
import { useForgotPasswordMutation } from './auth-api';
import { AuthSubmitButton } from './AuthSubmitButton';
import { SignInEmailField } from './SignInEmailField';

export function ForgotPasswordPage() {
  const [forgotPassword] = useForgotPasswordMutation();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!email.trim()) {
      setEmailError(messages.password.required);
      return;
    }
    setEmailError(null);
    setSending(true);
    try {
      await forgotPassword({ body: { email: email.trim() } }).unwrap();
      setSent(true);
    } catch (error) {
      const failed = asApiError(error);
      const fieldError = failed?.fieldErrors.email?.[0];
      if (fieldError) setEmailError(fieldError);
      else if (failed?.status === 429 && failed.detail) setFailure(failed.detail);
      else setFailure(messages.forgotPassword.failed);
    } finally {
      setSending(false);
    }
  };

  const backToLogin = (
    <Box sx={{ mt: 2, textAlign: 'center' }}>
      <Link component={RouterLink} to="/login">
        Back to login
      </Link>
    </Box>
  );

  if (sent) {
    return (
      <AuthLayout title={messages.forgotPassword.emailSent}>
        <Typography sx={{ textAlign: 'center' }}>
          If an account exists for {email.trim()}, it will receive a link to reset the password.
        </Typography>
        {backToLogin}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot your password?">
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box component="form" onSubmit={submit} noValidate>
        <SignInEmailField value={email} onChange={setEmail} error={emailError} />
        <AuthSubmitButton sx={{ mt: 2 }} disabled={sending}>
          Send Reset Password Link
        </AuthSubmitButton>
      </Box>
      {backToLogin}
    </AuthLayout>
  );
}
