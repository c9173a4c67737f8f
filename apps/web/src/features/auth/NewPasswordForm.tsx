import type { FormEvent, ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { AuthSubmitButton } from './AuthSubmitButton';

export interface NewPasswordFormProps {
  onSubmit: (event: FormEvent) => void;
  /** Field errors under the server's names; `token` or else `all` shows above the fields. */
  errors: Partial<Record<'password' | 'password_confirm' | 'token' | 'all', string>>;
  saving: boolean;
  passwordLabel: string;
  required?: boolean;
  autoFocus?: boolean;
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  /** Fields asked before the new password (activation's name and mobile). */
  children?: ReactNode;
}

/** A form that sets a new password and saves it: activation and reset. */
export function NewPasswordForm(props: NewPasswordFormProps) {
  const { onSubmit, errors, saving, children, ...fields } = props;
  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      {(errors.token || errors.all) && <Alert severity="error">{errors.token ?? errors.all}</Alert>}
      {children}
      <NewPasswordFields {...fields} errors={errors} />
      <AuthSubmitButton disabled={saving}>Save</AuthSubmitButton>
    </Box>
  );
}
