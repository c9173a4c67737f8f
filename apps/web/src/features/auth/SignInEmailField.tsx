import { OutlinedField } from '../../components/OutlinedField';

/** The email a person signs in with, first on the login and forgotten-password forms. */
export function SignInEmailField(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return (
    <OutlinedField
      label="Email"
      name="email"
      type="email"
      autoComplete="username"
      autoFocus
      required
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={Boolean(props.error)}
      helperText={props.error}
    />
  );
}
