import type { Role } from '../../src/db/schema/index.ts';
import type { TestVault } from './vault.ts';

/** A user of a test vault, signed in: their id and session cookie. */
export interface SignedInPerson {
  id: number;
  cookie: string;
}

/**
 * Creates one user per name, with the role given (usernames `{prefix}_{name}`), and signs each
 * in. For tests that ask the same question as several people (an owner, a follower, an admin…).
 */
export async function signedInPeople<Who extends string>(
  vault: TestVault,
  prefix: string,
  roles: Record<Who, Role>,
): Promise<Record<Who, SignedInPerson>> {
  const people = {} as Record<Who, SignedInPerson>;
  for (const [who, role] of Object.entries(roles) as [Who, Role][]) {
    const row = await vault.createUser({ username: `${prefix}_${who}`, role });
    people[who] = { id: row.id, cookie: await vault.login(row.username, row.password) };
  }
  return people;
}
