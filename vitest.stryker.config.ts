import { defineConfig } from 'vitest/config';

// Mutation testing (`npm run mutate`) scores src/kernel and src/domain against their own unit tests only:
// loading the API and engine suites would make every mutant run several times slower.
export default defineConfig({
  test: {
    include: ['test/kernel/**/*.test.ts', 'test/domain/**/*.test.ts'],
    setupFiles: ['vitest.stryker.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
