import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messages } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { AuthLayout } from '../../components/AuthLayout';
import { useResetPasswordMutation } from './auth-api';
import { NewPasswordForm } from './NewPasswordForm';
import { checkPasswordPair, firstErrors } from './password-form';
import { TokenCheckStatus } from './TokenCheckStatus';
import { useResetTokenCheck } from './use-token-check';

type Errors = Partial<Record<'password' | 'password_confirm' | 'token' | 'all', string>>;

export function ResetPasswordPage() {
  const { uid, token } = useParams();
  const navigate = useNavigate();
  const check = useResetTokenCheck(uid, token);
  const [resetPassword] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!uid || !token) return;
    const local = checkPasswordPair(password, confirm);
    if (local.password || local.confirm) {
      setErrors({ password: local.password, password_confirm: local.confirm });
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      await resetPassword({ body: { uid, token, password, password_confirm: confirm } }).unwrap();
      navigate('/login?message=LOGIN_RESET', { replace: true });
    } catch (error) {
      const fields = firstErrors(asApiError(error)?.fieldErrors ?? {});
      setErrors(Object.keys(fields).length > 0 ? fields : { all: messages.forgotPassword.failed });
      setSaving(false);
    }
  };

  return (
    <AuthLayout title="Reset your password">
      {check.state !== 'VALID' ? (
        <TokenCheckStatus
          state={check.state}
          error={check.error}
          retryLink={{ to: '/forgotpassword', label: 'Request another reset link' }}
        />
      ) : (
        <NewPasswordForm
          onSubmit={submit}
          errors={errors}
          saving={saving}
          passwordLabel="New password"
          autoFocus
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
        />
      )}
    </AuthLayout>
  );
}
