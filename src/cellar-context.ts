import type { ActorRepository } from './actors/repository.ts';
import type { BeverageRepository } from './beverages/repository.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createBottleRepository } from './cellar/bottle-repository.ts';
import { createBottleService } from './cellar/bottle-service.ts';
import { createCellarFigures } from './cellar/figures.ts';
import { createCellarFiguresRepository } from './cellar/figures-repository.ts';
import { createPlaceRepository } from './cellar/place-repository.ts';
import { createPlaceService } from './cellar/place-service.ts';
import type { Outbox } from './outbox/outbox.ts';
import { createTastingRepository } from './tastings/repository.ts';

/**
 * The cellar part of the context (src/context.ts): places, bottles, tastings and the cellar's
 * figures, each the owner's alone.
 */
export function createCellarContext(
  database: DatabaseHandle,
  options: {
    /** The entries' repository: bottles check the entry's owner and set its cellar flag. */
    entries: BeverageRepository;
    actors: ActorRepository;
    outbox: Outbox;
    now: () => number;
  },
) {
  const { now } = options;
  const { transaction } = database;
  const bottleRepo = createBottleRepository(database.db);
  const placeRepo = createPlaceRepository(database.sqlite);
  const tastingRepo = createTastingRepository(database.db);
  return {
    cellarFigures: createCellarFigures({
      repo: createCellarFiguresRepository(database.sqlite),
      now,
    }),
    places: createPlaceService({ repo: placeRepo, bottles: bottleRepo, transaction, now }),
    // Opening a bottle may write a tasting: `onTastingWritten` is where what else a tasting
    // does (its federation) joins the opening's transaction.
    bottles: createBottleService({
      repo: bottleRepo,
      places: placeRepo,
      entries: options.entries,
      tastings: tastingRepo,
      actors: options.actors,
      outbox: options.outbox,
      transaction,
      now,
    }),
  };
}
