import { randomBytes } from 'node:crypto';
import { MAX_TOKENS_PER_USER, TOKEN_PREFIX, type TokenScope } from '../../contract/tokens.ts';
import { hashToken, recentTokenHashes } from '../auth/sessions.ts';
import type { ApiTokenRow, UserRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import type { TokenRepository } from './repository.ts';

/** last_used_at is written at most this often per token: not a write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/** The longest secret looked up: a longer one cannot be a token (and is not hashed). */
const MAX_SECRET_LENGTH = 100;

export interface NewToken {
  name: string;
  scope: TokenScope;
  /** ISO 8601; null or undefined: never expires. */
  expiresAt?: string | null;
}

/**
 * Personal access tokens: a random secret, prefixed so that people and secret scanners
 * recognise it, shown once; only its SHA-256 is stored. Revoking deletes the token.
 */
export function createTokenService(deps: {
  repo: TokenRepository;
  users: UserRepository;
  /** A count checked against the limit and the new token, together (src/db/transaction.ts). */
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, users, transaction } = deps;
  const now = deps.now ?? Date.now;
  const hashOf = recentTokenHashes();
  const notFoundError = () => notFound('Access token not found');

  return {
    /** Makes a token; refused (409) when the owner already has MAX_TOKENS_PER_USER. */
    create(owner: UserRow, input: NewToken): Promise<{ token: ApiTokenRow; secret: string }> {
      return transaction(async () => {
        if ((await repo.countForUser(owner.id)) >= MAX_TOKENS_PER_USER) {
          throw conflict(
            `You have ${MAX_TOKENS_PER_USER} access tokens, the most a person may have: revoke one you no longer use first`,
          );
        }
        const t = now();
        let expiresAt: Date | null = null;
        if (input.expiresAt) {
          expiresAt = new Date(input.expiresAt);
          if (expiresAt.getTime() <= t) throw badRequest('Expiry must be in the future');
        }
        const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
        const token = await repo.insert({
          userId: owner.id,
          name: input.name,
          scope: input.scope,
          secretHash: hashToken(secret),
          createdAt: new Date(t),
          lastUsedAt: null,
          expiresAt,
        });
        return { token, secret };
      });
    },

    list(userId: number): Promise<ApiTokenRow[]> {
      return repo.listForUser(userId);
    },

    /** Every user's tokens with the owner's username (for admins). */
    listAll() {
      return repo.listAll();
    },

    /** Revokes (deletes) a token: its owner's, or anyone's for an admin; else not found. */
    revoke(actor: UserRow, id: number): Promise<void> {
      return transaction(async () => {
        const token = await repo.findById(id);
        if (!token || (token.userId !== actor.id && actor.role !== 'ADMIN')) {
          throw notFoundError();
        }
        await repo.delete(id);
      });
    },

    /**
     * The token and its owner for a secret, or undefined when it is unknown, revoked or
     * expired. Records the use, at most once a minute.
     */
    async authenticate(secret: string): Promise<{ token: ApiTokenRow; user: UserRow } | undefined> {
      if (secret.length > MAX_SECRET_LENGTH || !secret.startsWith(TOKEN_PREFIX)) return undefined;
      const token = await repo.findBySecretHash(hashOf(secret));
      if (!token) return undefined;
      const t = now();
      if (token.expiresAt && token.expiresAt.getTime() <= t) return undefined;
      const user = await users.findById(token.userId);
      if (!user) return undefined;
      if (!token.lastUsedAt || t - token.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        token.lastUsedAt = new Date(t);
        await repo.touch(token.id, token.lastUsedAt);
      }
      return { token, user };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
