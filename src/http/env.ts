import type { UserRow } from '../db/schema/index.ts';
import type { SessionRow } from '../db/schema/index.ts';
import type { TokenScope } from '../../contract/routes/route.ts';
import type { IdempotencyService } from '../idempotency/service.ts';

/** Hono environment: what middleware puts on the context for handlers. */
export interface AppEnv {
  Variables: {
    user: UserRow | undefined;
    session: SessionRow | undefined;
    /**
     * The access token the request came with (`Authorization: Bearer …`), when it did: the
     * user is then the token's owner and there is no session. Route access is checked against
     * its scope (src/http/contract-route.ts).
     */
    token: { id: number; scope: TokenScope } | undefined;
    /** The idempotency keys of writes (src/http/idempotency.ts), put there for /api requests. */
    idempotency: IdempotencyService | undefined;
  };
}
