import type { UserRow } from '../db/schema/index.ts';
import type { SessionRow } from '../db/schema/index.ts';

/** Hono environment: what middleware puts on the context for handlers. */
export interface AppEnv {
  Variables: {
    user: UserRow | undefined;
    session: SessionRow | undefined;
  };
}
