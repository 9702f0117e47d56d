// @ts-check
/**
 * Mutation testing of the pure core (`npm run mutate`; not part of CI because a full run takes long).
 * Partial run while working on one file: `npx stryker run --mutate src/kernel/money.ts`.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  mutate: [
    'src/kernel/**/*.ts',
    'src/domain/**/*.ts',
    // Files that only declare types or re-export give no mutants worth a test.
    '!src/domain/**/index.ts',
    '!src/domain/catalog/types.ts',
    '!src/domain/customer/types.ts',
    '!src/domain/invoice/types.ts',
    '!src/domain/invoice/calculation/types.ts',
    '!src/domain/feature/types.ts',
    '!src/domain/event-log/types.ts',
    '!src/domain/payment/types.ts',
    '!src/domain/allocation/types.ts',
    '!src/domain/email/types.ts',
    '!src/domain/coupon/types.ts',
    '!src/domain/subscription/types.ts',
    '!src/domain/portal/types.ts',
  ],
  ignorePatterns: ['dist', 'coverage', 'reports', 'benchmarks', 'docs', '.stryker-tmp*'],
  coverageAnalysis: 'perTest',
  // The machine has two cores shared with other work.
  concurrency: 1,
  timeoutMS: 20_000,
  // The initial run executes every kernel and domain test with coverage, slowly on a shared machine.
  dryRunTimeoutMinutes: 30,
  timeoutFactor: 2.5,
  // A static mutant (module-level constant) forces a rerun of every kernel and domain test, property
  // tests included; Stryker estimated them at 99% of the time. They are reported as ignored instead.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
