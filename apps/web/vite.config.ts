import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { appPages, pageInputs } from './build/pages.ts';
import { bootPreload } from './build/boot-preload.ts';
import { precompress } from './build/precompress.ts';
// browserProtocol reads the protocol package's TypeScript sources while the config loads, so the
// scripts load this config with Vite's module runner (`--configLoader runner`), which resolves
// them as it does the app's modules; the default loader bundles the config and warns about each
// of their extensionless imports.
import { browserProtocol } from './build/browser-protocol.ts';

// The API server of `npm start`; the dev server forwards API and storage calls to it so that the
// session cookie stays first-party, as it is when the server itself serves the built app.
const apiServer = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [appPages(), browserProtocol(), react(), bootPreload(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // The login and external package pages are built apart from the app (build/pages.ts).
      input: pageInputs,
      output: {
        // Libraries that change with upgrades only, apart from our code that changes with every
        // release: after a deploy, a returning browser still has them cached under their hash.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            // Apart from React: the login page has no router.
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            {
              name: 'data',
              test: /node_modules[\\/](@reduxjs|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store|@standard-schema)[\\/]/,
            },
            {
              // What every page calls the API with, the login page's first render included.
              name: 'api-base',
              test: /packages[\\/]protocol[\\/]src[\\/](limits|api[\\/](route|api-error))\.ts/,
            },
            {
              // Only the screens that build schemas load it (build/browser-protocol.ts).
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|src[\\/]app[\\/]zod-jitless/,
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
