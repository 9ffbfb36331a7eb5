import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first: browser tests, then the process tests and the ones that start
 * several servers, then the rest in Vitest's own order (by last duration, else by size). With
 * two workers, a long file that starts last leaves the other worker idle at the end; on a fresh
 * clone Vitest has no durations to go by and ordered by file size, which put browser tests last.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (file: TestSpecification) =>
      /\/test\/browser\//.test(file.moduleId)
        ? 2
        : /\/test\/process\/|two-vaults|-kill\.test|fuzz\.test/.test(file.moduleId)
          ? 1
          : 0;
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((file, index) => [file, index]));
    return [...sorted].sort((a, b) => weight(b) - weight(a) || position.get(a)! - position.get(b)!);
  }
}

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
    sequence: { sequencer: LongestFirst },
    passWithNoTests: false,
  },
});
