// The end-to-end suite: the built main.js in the harness page, driven in Debian's Chromium by
// playwright-core (`npm run test:e2e`, part of `npm test`). Node environment (the tests drive the
// browser from outside), one file at a time, generous timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
