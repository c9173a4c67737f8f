import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './build/precompress.ts';

// The API server of `npm start`; the dev server forwards API and storage calls to it so that the
// session cookie stays first-party, as it is when the server itself serves the built app.
const apiServer = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries that change with upgrades only, apart from our code that changes with every
        // release: after a deploy, a returning browser still has them cached under their hash.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            {
              name: 'data',
              // zod's jitless setting travels with zod itself: every chunk that builds a schema
              // loads this one first, so the setting is in force before the first schema is built.
              test: /node_modules[\\/](zod|@reduxjs|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store|@standard-schema)[\\/]|src[\\/]app[\\/]zod-jitless/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiServer, ws: true },
      '/v1': { target: apiServer },
    },
  },
});
