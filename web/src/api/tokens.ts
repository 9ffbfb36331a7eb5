/**
 * Personal access tokens (the profile's Access tokens panel and the Admin Console). Every call is
 * typed from the route table (./call.ts).
 */
import type { AdminToken, CreatedToken, Token, TokenScope } from '../../../contract/tokens.ts';
import { call } from './call.ts';

export type { AdminToken, CreatedToken, Token, TokenScope } from '../../../contract/tokens.ts';

/** The query keys of the tokens: the user's own, and every user's for the Admin Console. */
export const tokenKeys = {
  own: ['tokens'] as const,
  all: ['tokens', 'all'] as const,
};

export async function fetchTokens(): Promise<Token[]> {
  return (await call('GET /tokens')).tokens;
}

export async function fetchAllTokens(): Promise<AdminToken[]> {
  return (await call('GET /tokens/all')).tokens;
}

export function createToken(input: {
  name: string;
  scope: TokenScope;
  expiresAt: string | null;
}): Promise<CreatedToken> {
  return call('POST /tokens', { json: input });
}

export function revokeToken(id: number): Promise<void> {
  return call('DELETE /tokens/{id}', { params: { id } });
}

/**
 * The instant a token chosen to expire on a day (yyyy-mm-dd, the reader's calendar) stops
 * working: the end of that day where the reader is, as ISO 8601; null for no day.
 */
export function endOfDay(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59, 999).toISOString();
}

/** How many tokens each user has, by user id. */
export function tokenCounts(tokens: readonly Pick<AdminToken, 'userId'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { userId } of tokens) counts.set(userId, (counts.get(userId) ?? 0) + 1);
  return counts;
}
