import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    expect: { requireAssertions: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time. Vitest's default on a 2-core machine is one (cores - 1); the
    // browser and process tests wait on other processes often enough that two finish the
    // suite about a sixth sooner (357 s -> 305 s here) without making them flaky.
    maxWorkers: 2,
    allowOnly: false,
    passWithNoTests: false,
  },
});
