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
    reporters: testReporters('unit'),
    // One embedded PostgreSQL for the run unless DATABASE_URL names a server.
    globalSetup: ['apps/server/test/global-database.ts'],
  },
});
