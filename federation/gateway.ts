import { getLogger } from '@logtape/logtape';
import type { Database } from '../src/db/database.ts';
import type { VaultFederation, VaultFederationOptions } from './index.ts';

const logger = getLogger(['vault', 'federation']);

/**
 * Fedify, loaded on demand. Its module graph (the ActivityStreams vocabulary above all) is the
 * largest the vault has (`npm run bench` measures start-up and memory), and most requests never
 * need it: the JSON API, images and the client do not. It is loaded by the first federation
 * request (WebFinger, an actor, an inbox delivery) or, at start, when the federation queue
 * holds work left from the last run. Once loaded it stays. Nothing else in src/ imports Fedify:
 * the federation modules the app loads at start (the outbox handlers, the remote lookup) import
 * its types only, or import it on demand.
 */
export interface FederationGateway {
  /** VAULT_ORIGIN: the public origin requests are addressed to (behind a proxy too). */
  readonly origin: string;
  /** Blocked servers (src/domain-blocks/), for the lookups made before Fedify loads. */
  readonly blocks: VaultFederationOptions['blocks'];
  /** Loads Fedify (once) and returns the federation; rejects after stop(). */
  load(): Promise<VaultFederation>;
  /** The federation if it has been loaded. */
  current(): VaultFederation | undefined;
  /**
   * The queue worker is to run: now if Fedify is loaded or the queue holds messages (which
   * loads it), otherwise as soon as something loads it.
   */
  startQueue(): void;
  /** Stops the queue worker if it runs; nothing is loaded after this. */
  stop(): Promise<void>;
}

export function createFederationGateway(options: VaultFederationOptions): FederationGateway {
  let loading: Promise<VaultFederation> | undefined;
  let instance: VaultFederation | undefined;
  let queueWanted = false;
  let stopped = false;
  if (options.allowPrivateAddress) {
    logger.warn(
      'VAULT_ALLOW_PRIVATE_ADDRESS is on: outbound federation requests may reach private, loopback and link-local addresses, so a remote server can make the vault probe your network. Use it only for LAN setups and tests.',
    );
  }

  function load(): Promise<VaultFederation> {
    if (stopped) return Promise.reject(new Error('The federation has been stopped'));
    loading ??= import('./index.ts').then(({ createVaultFederation }) => {
      instance = createVaultFederation(options);
      if (queueWanted && !stopped) instance.startQueue();
      logger.debug('Federation loaded');
      return instance;
    });
    return loading;
  }

  return {
    origin: options.config.origin,
    blocks: options.blocks,
    load,
    current: () => instance,
    startQueue() {
      queueWanted = true;
      if (instance) {
        instance.startQueue();
        return;
      }
      // If something loads the federation while this asks, it starts the queue itself (queueWanted).
      void hasQueuedMessages(options.database.database)
        .then((queued) => (queued && !instance && !stopped ? load() : undefined))
        .catch((error: unknown) =>
          logger.error('Could not load the federation: {error}', { error }),
        );
    },
    async stop() {
      stopped = true;
      if (!loading) return;
      const federation = await loading.catch(() => undefined);
      await federation?.stop();
    },
  };
}

async function hasQueuedMessages(db: Database): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM federation_queue LIMIT 1').get()) !== undefined;
}
