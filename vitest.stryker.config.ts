import { defineConfig } from 'vitest/config';

// Mutation testing (`npm run mutate`) scores src/kernel and src/domain against their own unit tests only:
// loading the API and engine suites would make every mutant run several times slower.
// STRYKER_TESTS (comma-separated folders or test files, e.g. `test/kernel`) narrows the suite further for a run that
// mutates one folder: the initial coverage run then skips the long property tests of the other folders.
const entries = (process.env.STRYKER_TESTS ?? 'test/kernel,test/domain').split(',').filter((f) => f !== '');

export default defineConfig({
  test: {
    include: entries.map((entry) =>
      entry.endsWith('.ts') ? entry : `${entry.replace(/\/$/, '')}/**/*.test.ts`,
    ),
    setupFiles: ['vitest.stryker.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
