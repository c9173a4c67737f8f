import { StrictMode, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
// MUI's own ThemeProvider also brings the CSS-variables provider (color schemes kept in
// localStorage), which a theme without CSS variables never uses; for such a theme it hands over to
// this one.
import { ThemeProvider } from '@mui/system';
import { ToastProvider } from '../components/ToastProvider';
import { HiddenSettingsShortcuts } from '../features/hidden-settings/HiddenSettingsShortcuts';
import { theme } from './theme';

/**
 * What every page stands in, the login page opened from a link included: the theme, the toasts
 * and the hidden settings' shortcuts.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          {children}
          <HiddenSettingsShortcuts />
        </ToastProvider>
      </ThemeProvider>
    </StrictMode>
  );
}
