import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import CssBaseline from '@mui/material/CssBaseline';
// MUI's own ThemeProvider also brings the CSS-variables provider (color schemes kept in
// localStorage), which a theme without CSS variables never uses; for such a theme it hands over to
// this one.
import { ThemeProvider } from '@mui/system';
import { ToastProvider } from './components/ToastProvider';
import { router } from './app/router';
import { store } from './app/store';
import { theme } from './app/theme';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ThemeProvider>
    </Provider>
  </StrictMode>,
);
