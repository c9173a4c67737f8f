import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The API server of `npm start`; the dev server forwards API and storage calls to it so that the
// session cookie stays first-party, as it is when the server itself serves the built app.
const apiServer = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/api': { target: apiServer, ws: true },
      '/v1': { target: apiServer },
    },
  },
});
