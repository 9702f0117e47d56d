import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'] } },
      // The official SDK's suites again, through billing-core/sdk in-process instead of over HTTP.
      {
        extends: true,
        test: {
          name: 'interop-in-process',
          include: ['test/interop/sdk*.test.ts'],
          env: { BILLING_CORE_INTEROP_TRANSPORT: 'in-process' },
        },
      },
    ],
  },
});
