import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Logo } from './Logo';

/** A full-page message with actions: not found, error, no active projects. */
export function MessagePage(props: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        p: 3,
      }}
    >
      <Logo />
      <Typography variant="h4" component="h1">
        {props.title}
      </Typography>
      {props.children && (
        <Typography color="text.secondary" sx={{ maxWidth: 520 }}>
          {props.children}
        </Typography>
      )}
      {props.actions && (
        <Stack direction="row" spacing={2}>
          {props.actions}
        </Stack>
      )}
    </Box>
  );
}
