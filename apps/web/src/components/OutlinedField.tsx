import { useId, type ChangeEventHandler, type ReactNode } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

export interface OutlinedFieldProps {
  label: string;
  name?: string;
  type?: string;
  value: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean | undefined;
  readOnly?: boolean;
  error?: boolean;
  /** Shown under the input and read with it (`aria-describedby`); the error message when `error`. */
  helperText?: ReactNode;
  endAdornment?: ReactNode;
}

/**
 * A one-line text input that looks and reads like an outlined MUI TextField (floating label,
 * helper or error text tied to the input), built from its parts: TextField also brings Select
 * with its menu and popover, which the sign-in pages, the first screen most visits load, never use.
 */
export function OutlinedField(props: OutlinedFieldProps) {
  const { label, helperText, error = false, required = false, readOnly, endAdornment } = props;
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl fullWidth margin="normal" variant="outlined" error={error} required={required}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={props.name}
        type={props.type}
        value={props.value}
        onChange={props.onChange}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        readOnly={readOnly}
        endAdornment={endAdornment}
        inputProps={helperId ? { 'aria-describedby': helperId } : undefined}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
