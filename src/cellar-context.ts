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
import type { MediaStore } from './media/images.ts';
import { createTastingActivities } from './tastings/activities.ts';
import { createTastingRepository } from './tastings/repository.ts';
import { createTastingService } from './tastings/service.ts';
import type { VisibilityPolicy } from './visibility/policy.ts';

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
    // Tastings: who may read them, and where their photos are kept.
    visibility: VisibilityPolicy;
    media: MediaStore;
  },
) {
  const { now } = options;
  const { transaction } = database;
  const bottleRepo = createBottleRepository(database.database);
  const placeRepo = createPlaceRepository(database.database);
  const tastingRepo = createTastingRepository(database.database);
  // A tasting's activity (its followers' feeds, its Note), recorded in its write's transaction.
  const tastingActivities = createTastingActivities({
    outbox: options.outbox,
    actors: options.actors,
    now,
  });
  return {
    cellarFigures: createCellarFigures({
      repo: createCellarFiguresRepository(database.database),
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
      onTastingWritten: (tasting, entry) => tastingActivities.written(tasting, entry),
      media: options.media,
      now,
    }),
    tastings: createTastingService({
      repo: tastingRepo,
      entries: options.entries,
      visibility: options.visibility,
      media: options.media,
      activities: tastingActivities,
      transaction,
      now,
    }),
    /** Tastings by id and by photo, for the activity feed and the media route's policy. */
    tastingRows: tastingRepo,
  };
}
