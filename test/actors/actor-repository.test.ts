import { afterEach, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

describe('local actors', () => {
  it('makes a user their actor row once and gives the same id after', async () => {
    vault = createTestVault();
    const alice = await vault.createUser({ username: 'alice' });
    const id = await vault.ctx.actors.localActorId(alice.id);
    expect(await vault.ctx.actors.localActorId(alice.id)).toBe(id);
    expect(await vault.ctx.actors.userIdOf(id)).toBe(alice.id);
  });

  it('does not remember an actor row that a rolled-back transaction made', async () => {
    vault = createTestVault();
    const alice = await vault.createUser({ username: 'alice' });
    const { actors, database } = vault.ctx;
    let inside = 0;
    await expect(
      database.transaction(async () => {
        inside = await actors.localActorId(alice.id);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await actors.localActorId(alice.id);
    expect(await actors.userIdOf(after)).toBe(alice.id);
    expect((await actors.findById(after))?.userId).toBe(alice.id);
    expect(inside).toBeGreaterThan(0);
  });
});
