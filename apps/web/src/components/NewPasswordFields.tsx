import { PasswordField } from './PasswordField';
import { PasswordRequirementsList } from './PasswordRequirementsList';

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  /** Field errors under the server's names `password` and `password_confirm`. */
  errors: { password?: string | undefined; password_confirm?: string | undefined };
  passwordLabel: string;
  required?: boolean;
  autoFocus?: boolean;
}

/** A new password, its confirmation and the live requirements list (activation and reset). */
export function NewPasswordFields(props: NewPasswordFieldsProps) {
  const { password, confirm, errors, required, autoFocus } = props;
  return (
    <>
      <PasswordField
        label={props.passwordLabel}
        name="password"
        autoComplete="new-password"
        required={required}
        autoFocus={autoFocus}
        value={password}
        onChange={(e) => props.onPasswordChange(e.target.value)}
        error={Boolean(errors.password)}
        helperText={errors.password}
      />
      <PasswordField
        label="Confirm password"
        name="password_confirm"
        autoComplete="new-password"
        required={required}
        value={confirm}
        onChange={(e) => props.onConfirmChange(e.target.value)}
        error={Boolean(errors.password_confirm)}
        helperText={errors.password_confirm}
      />
      <PasswordRequirementsList password={password} />
    </>
  );
}
