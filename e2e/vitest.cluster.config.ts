import { defineConfig } from 'vitest/config';
import { testReporters } from '../scripts/test-reporters.ts';

// The cluster suite: one cluster (scripts/cluster.sh: three nodes, PostgreSQL, Swift, nginx) per
// file, files one after another; starting one takes a minute on a small machine.
export default defineConfig({
  test: {
    include: ['cluster/**/*.cluster.test.ts'],
    root: import.meta.dirname,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    reporters: testReporters('cluster'),
  },
});
