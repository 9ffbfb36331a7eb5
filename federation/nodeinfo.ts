import type { Federation } from '@fedify/fedify';
import packageJson from '../package.json' with { type: 'json' };
import type { FederationDeps } from './deps.ts';
import { FEDERATION_PATHS } from './paths.ts';

/** NodeInfo 2.1 at /nodeinfo/2.1 (linked from /.well-known/nodeinfo by Fedify). */
export function registerNodeInfo(federation: Federation<void>, deps: FederationDeps): void {
  federation.setNodeInfoDispatcher(FEDERATION_PATHS.nodeInfo, async () => ({
    software: { name: 'vault', version: packageJson.version },
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: {
      users: { total: await deps.countFederatedUsers() },
      // Entries that go to the fediverse, of users with activityPubEnabled.
      localPosts: await deps.countFederatedEntries(),
      localComments: 0,
    },
  }));
}
