import { defineConfig } from 'vitest/config';
import { testReporters } from './scripts/test-reporters.ts';

// Unit and integration tests of every workspace; the browser suites live in e2e/ with their own config.
export default defineConfig({
  // What the web app's build stamps in (apps/web/vite.config.ts), for the modules that read it.
  define: { __APP_VERSION__: JSON.stringify('test') },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.{ts,tsx}',
      'apps/*/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker per core, not vitest's default of one fewer: the integration files spend about
    // half their time waiting on PostgreSQL and the server's sockets, so on CI's two cores two
    // workers run the suite in 6 minutes instead of 11.
    maxWorkers: '100%',
    reporters: testReporters('unit'),
    // One embedded PostgreSQL for the run unless DATABASE_URL names a server.
    globalSetup: ['apps/server/test/global-database.ts'],
  },
});
