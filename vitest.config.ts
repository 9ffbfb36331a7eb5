import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    expect: { requireAssertions: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time. Vitest's default on a 2-core machine is one (cores - 1); the
    // browser and process tests wait on other processes often enough that a third file fills
    // the gaps (a full run here: 338 s with two, 317 s with three) without making them flaky.
    maxWorkers: 3,
    allowOnly: false,
    passWithNoTests: false,
  },
});
