import { defineConfig } from 'vitest/config';

// Browser suites: each file starts its own server and Chromium, so files run one after another
// in a single process, with timeouts sized for a server start and a whole user journey.
export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    root: import.meta.dirname,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    // expect.poll waits on the page as long as a locator does (pages.ts: freshPage).
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
