import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // What compares the engines needs PostgreSQL: it runs in `npm run test:postgres`.
    exclude: [...configDefaults.exclude, 'test/**/*.postgres.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-errors.ts'],
    // expect.poll gives up after 1 s by default, which a busy machine (two cores, a browser and
    // servers for three test files) overruns: a poll waits for a final state, so it may wait long.
    expect: { requireAssertions: true, poll: { timeout: 15_000 } },
    // Generous: a browser test waits for many screens, each of which may be slow on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time. Vitest's default on a 2-core machine is one (cores - 1); the
    // browser and process tests wait on other processes often enough that a third file fills
    // the gaps (a full run here: 338 s with two, 317 s with three) without making them flaky.
    maxWorkers: 3,
    // Each worker runs file after file without starting afresh: a fresh module graph per file
    // (the app, Fedify, drizzle, sharp, Playwright imported and evaluated again 126 times) cost
    // about a fifth of the run's CPU, and the run is bound by CPU (a full run here: 5 min 55 s
    // isolated, 4 min 26 s not). Every test builds its own vault, server and browser context,
    // so nothing a test relies on is shared; globals and environment variables a test stubs are
    // put back after it.
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    allowOnly: false,
    passWithNoTests: false,
  },
});
