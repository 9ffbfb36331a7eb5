import type { DatabaseHandle } from './db/client.ts';
import { createCellarFigures } from './cellar/figures.ts';
import { createCellarFiguresRepository } from './cellar/figures-repository.ts';

/**
 * The cellar part of the context (src/context.ts): places, bottles, tastings and the cellar's
 * figures, each the owner's alone.
 */
export function createCellarContext(database: DatabaseHandle, options: { now: () => number }) {
  const { now } = options;
  return {
    cellarFigures: createCellarFigures({
      repo: createCellarFiguresRepository(database.sqlite),
      now,
    }),
  };
}
