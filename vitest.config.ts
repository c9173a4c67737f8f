import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace; the browser suites live in e2e/ with their own config.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.{ts,tsx}',
      'apps/*/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One embedded PostgreSQL for the run unless DATABASE_URL names a server.
    globalSetup: ['apps/server/test/global-database.ts'],
  },
});
