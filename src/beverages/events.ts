import type { BeverageRow } from '../db/schema/index.ts';
import { logger } from '../logger.ts';

/**
 * What happened to an entry, announced after the local write has committed. Federation
 * subscribes to publish Create/Update/Delete; a failing listener never fails the local action.
 */
export type BeverageEvent =
  | { kind: 'created'; entry: BeverageRow }
  | { kind: 'updated'; entry: BeverageRow; previous: BeverageRow }
  | { kind: 'deleted'; entry: BeverageRow };

export type BeverageListener = (event: BeverageEvent) => void | Promise<void>;

export function createBeverageEvents() {
  const listeners: BeverageListener[] = [];
  return {
    subscribe(listener: BeverageListener): () => void {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    publish(event: BeverageEvent): void {
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener(event))
          .catch((error: unknown) =>
            logger.error('A listener failed on entry {kind} {id}: {error}', {
              kind: event.kind,
              id: event.entry.id,
              error,
            }),
          );
      }
    },
  };
}

export type BeverageEvents = ReturnType<typeof createBeverageEvents>;
