import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';

/** The wide submit button that ends each form of the sign-in pages. */
export function AuthSubmitButton(props: {
  disabled: boolean;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Button
      type="submit"
      variant="contained"
      fullWidth
      size="large"
      sx={props.sx}
      disabled={props.disabled}
    >
      {props.children}
    </Button>
  );
}
