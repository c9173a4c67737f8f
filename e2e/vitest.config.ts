import { configDefaults, defineConfig } from 'vitest/config';
import { testReporters } from '../scripts/test-reporters.ts';

// Browser suites: each file starts its own server and Chromium, so files run one after another
// in a single process, with timeouts sized for a server start and a whole user journey.
/**
 * Suites about screens and accounts that never send or receive a file's bytes: with
 * TEST_SCOPE=storage (CI's PostgreSQL and Swift leg, after the first leg ran them) they are left out.
 */
const SCREENS_ONLY = ['accounts', 'admin', 'debug-tools', 'projects', 'route-client', 'shell'].map(
  (suite) => `${suite}.e2e.test.ts`,
);

export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.TEST_SCOPE === 'storage' ? SCREENS_ONLY : []),
    ],
    root: import.meta.dirname,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    reporters: testReporters('browser'),
    // expect.poll waits on the page as long as a locator does (pages.ts: freshPage).
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
