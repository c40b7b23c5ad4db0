import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The `obsidian` npm package ships types only; tests run against our runtime of its API.
    alias: {
      obsidian: fileURLToPath(new URL('./test/obsidian/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
