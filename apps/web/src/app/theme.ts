import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    // Text on a coloured ground (a warning chip's orange) is chosen dark or light by the contrast
    // WCAG AA asks of body text, not the default's lower bar.
    contrastThreshold: 4.5,
    // The dark shade is teal's next one, where text on a tinted ground needs the contrast.
    primary: { main: '#00796b', dark: '#00695c' },
    secondary: { main: '#5e35b1' },
    background: { default: '#f5f7f8' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    // Initials on the default avatar's light grey: dark, where the default's near-white is unreadable.
    MuiAvatar: {
      styleOverrides: { colorDefault: ({ theme }) => ({ color: theme.palette.grey[800] }) },
    },
    // An unselected toggle's default grey is a hair too faint on the page's background.
    MuiToggleButton: {
      styleOverrides: { root: ({ theme }) => ({ color: theme.palette.text.secondary }) },
    },
  },
});
