import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { messages } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { useAppDispatch } from '../../app/hooks';
import { PasswordField } from '../../components/PasswordField';
import { PasswordRequirementsList } from '../../components/PasswordRequirementsList';
import { useToast } from '../../components/toast-context';
import { logout } from '../auth/auth-api';
import { checkPasswordPair, firstErrors } from '../auth/password-form';
import { useUpdatePasswordMutation } from './profile-api';

type Field = 'password_current' | 'password_new' | 'password_new_confirm';
type Errors = Partial<Record<Field, string>>;

/** Changing the password ends every session of the user, this one included. */
export function UpdatePasswordTab() {
  const [updatePassword] = useUpdatePasswordMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState<Record<Field, string>>({
    password_current: '',
    password_new: '',
    password_new_confirm: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const pair = checkPasswordPair(values.password_new, values.password_new_confirm);
    const local: Errors = { password_new: pair.password, password_new_confirm: pair.confirm };
    if (!values.password_current) local.password_current = messages.password.required;
    const found = Object.fromEntries(Object.entries(local).filter(([, m]) => m)) as Errors;
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    setSaving(true);
    try {
      await updatePassword({ body: values }).unwrap();
      toast({ severity: 'success', message: messages.password.updated });
      // Leave the shell (flushed, not in a transition) before the state is cleared, so the login
      // page gets this message rather than the shell's own redirect.
      navigate('/login?message=PASSWORD_UPDATED', { replace: true, flushSync: true });
      void dispatch(logout());
    } catch (error) {
      const fields = firstErrors(asApiError(error)?.fieldErrors ?? {}) as Errors;
      const shown = Object.keys(fields).filter((f) => f in values);
      setErrors(fields);
      if (shown.length === 0) setFailure(messages.password.failed);
      setSaving(false);
    }
  };

  const field = (name: Field, label: string, autoComplete: string) => (
    <PasswordField
      label={label}
      name={name}
      autoComplete={autoComplete}
      required
      value={values[name]}
      onChange={set(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
    />
  );

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ maxWidth: 480 }}>
      {failure && <Alert severity="error">{failure}</Alert>}
      {field('password_current', 'Current password', 'current-password')}
      {field('password_new', 'New password', 'new-password')}
      {field('password_new_confirm', 'Confirm new password', 'new-password')}
      <PasswordRequirementsList password={values.password_new} />
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={saving}>
        Update Password
      </Button>
    </Box>
  );
}
