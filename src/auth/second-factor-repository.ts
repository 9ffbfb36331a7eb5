import type Database from 'better-sqlite3';
import { and, asc, eq, isNull, lt, or, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import {
  backupCodes,
  pendingLogins,
  totpSecrets,
  webauthnCredentials,
  webauthnRegistrations,
  type PendingLoginRow,
  type TotpSecretRow,
  type WebauthnCredentialRow,
  type WebauthnRegistrationRow,
} from '../db/schema/index.ts';

export type NewWebauthnCredential = Omit<WebauthnCredentialRow, 'id' | 'lastUsedAt'>;

/**
 * Data access for second factors: security keys, registration ceremonies, authenticator-app
 * secrets, backup codes and pending logins. The only code that queries those tables.
 */
export function createSecondFactorRepository(db: Db, sqlite: Database.Database) {
  return {
    /**
     * Runs `fn` in one IMMEDIATE transaction. `fn` must be synchronous: every check-and-mark
     * of a factor happens inside one, after any await, so two requests cannot both pass.
     */
    transaction<T>(fn: () => T): T {
      return sqlite.transaction(fn).immediate();
    },

    // Security keys -----------------------------------------------------------------------

    listCredentials(userId: number): WebauthnCredentialRow[] {
      return db
        .select()
        .from(webauthnCredentials)
        .where(eq(webauthnCredentials.userId, userId))
        .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id))
        .all();
    },
    countCredentials(userId: number): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(webauthnCredentials)
          .where(eq(webauthnCredentials.userId, userId))
          .get()?.n ?? 0
      );
    },
    findCredential(id: number): WebauthnCredentialRow | undefined {
      return db.select().from(webauthnCredentials).where(eq(webauthnCredentials.id, id)).get();
    },
    findCredentialByCredentialId(credentialId: string): WebauthnCredentialRow | undefined {
      return db
        .select()
        .from(webauthnCredentials)
        .where(eq(webauthnCredentials.credentialId, credentialId))
        .get();
    },
    insertCredential(values: NewWebauthnCredential): WebauthnCredentialRow {
      return db.insert(webauthnCredentials).values(values).returning().get();
    },
    deleteCredential(id: number): number {
      return db.delete(webauthnCredentials).where(eq(webauthnCredentials.id, id)).run().changes;
    },
    /** Records a successful assertion. */
    recordCredentialUse(
      id: number,
      use: Pick<WebauthnCredentialRow, 'counter' | 'lastUsedAt' | 'backedUp' | 'deviceType'>,
    ): void {
      db.update(webauthnCredentials).set(use).where(eq(webauthnCredentials.id, id)).run();
    },

    // Registration ceremonies ---------------------------------------------------------------

    /** Starts (or restarts) the registration ceremony of a session. */
    putRegistration(row: WebauthnRegistrationRow): void {
      db.insert(webauthnRegistrations)
        .values(row)
        .onConflictDoUpdate({
          target: webauthnRegistrations.sessionIdHash,
          set: {
            userId: row.userId,
            challenge: row.challenge,
            userHandle: row.userHandle,
            expiresAt: row.expiresAt,
          },
        })
        .run();
    },
    /** Removes and returns a session's registration ceremony: a challenge is used once. */
    takeRegistration(sessionIdHash: string): WebauthnRegistrationRow | undefined {
      return db
        .delete(webauthnRegistrations)
        .where(eq(webauthnRegistrations.sessionIdHash, sessionIdHash))
        .returning()
        .get();
    },

    // Authenticator app ---------------------------------------------------------------------

    findTotp(userId: number): TotpSecretRow | undefined {
      return db.select().from(totpSecrets).where(eq(totpSecrets.userId, userId)).get();
    },
    /** Stores a new, unconfirmed secret, replacing any earlier one. */
    putTotp(userId: number, secret: string, createdAt: Date): void {
      db.insert(totpSecrets)
        .values({ userId, secret, confirmed: false, lastUsedStep: null, createdAt })
        .onConflictDoUpdate({
          target: totpSecrets.userId,
          set: { secret, confirmed: false, lastUsedStep: null, createdAt },
        })
        .run();
    },
    /** Confirms an unconfirmed secret with the step of its first code. */
    confirmTotp(userId: number, step: number): boolean {
      return (
        db
          .update(totpSecrets)
          .set({ confirmed: true, lastUsedStep: step })
          .where(and(eq(totpSecrets.userId, userId), eq(totpSecrets.confirmed, false)))
          .run().changes === 1
      );
    },
    /**
     * Marks a time step as used, only if it is later than the last one used: a code is
     * accepted at most once. False when another request used this step (or a later one) first.
     */
    useTotpStep(userId: number, step: number): boolean {
      return (
        db
          .update(totpSecrets)
          .set({ lastUsedStep: step })
          .where(
            and(
              eq(totpSecrets.userId, userId),
              eq(totpSecrets.confirmed, true),
              or(isNull(totpSecrets.lastUsedStep), lt(totpSecrets.lastUsedStep, step)),
            ),
          )
          .run().changes === 1
      );
    },
    deleteTotp(userId: number): void {
      db.delete(totpSecrets).where(eq(totpSecrets.userId, userId)).run();
      db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
    },
    /** Deletes an unconfirmed secret and its backup codes; a confirmed one stays. */
    deleteUnconfirmedTotp(userId: number): void {
      const deleted = db
        .delete(totpSecrets)
        .where(and(eq(totpSecrets.userId, userId), eq(totpSecrets.confirmed, false)))
        .run().changes;
      if (deleted > 0) db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
    },

    // Backup codes --------------------------------------------------------------------------

    replaceBackupCodes(userId: number, codeHashes: string[], createdAt: Date): void {
      db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
      if (codeHashes.length > 0) {
        db.insert(backupCodes)
          .values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt })))
          .run();
      }
    },
    /** Marks an unused backup code as used. False when it does not exist or was used. */
    useBackupCode(userId: number, codeHash: string, usedAt: Date): boolean {
      return (
        db
          .update(backupCodes)
          .set({ usedAt })
          .where(
            and(
              eq(backupCodes.userId, userId),
              eq(backupCodes.codeHash, codeHash),
              isNull(backupCodes.usedAt),
            ),
          )
          .run().changes === 1
      );
    },
    countUnusedBackupCodes(userId: number): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(backupCodes)
          .where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)))
          .get()?.n ?? 0
      );
    },

    // Pending logins ------------------------------------------------------------------------

    insertPending(row: PendingLoginRow): void {
      db.insert(pendingLogins).values(row).run();
    },
    findPending(idHash: string): PendingLoginRow | undefined {
      return db.select().from(pendingLogins).where(eq(pendingLogins.idHash, idHash)).get();
    },
    deletePending(idHash: string): boolean {
      return db.delete(pendingLogins).where(eq(pendingLogins.idHash, idHash)).run().changes === 1;
    },
    /** Counts one failed second step; returns the new count (0 if the row is gone). */
    addPendingAttempt(idHash: string): number {
      const row = db
        .update(pendingLogins)
        .set({ attempts: sql`${pendingLogins.attempts} + 1` })
        .where(eq(pendingLogins.idHash, idHash))
        .returning({ attempts: pendingLogins.attempts })
        .get();
      return row?.attempts ?? 0;
    },
    deleteExpiredPending(now: Date): number {
      return db.delete(pendingLogins).where(lt(pendingLogins.expiresAt, now)).run().changes;
    },
    deletePendingForUser(userId: number): number {
      return db.delete(pendingLogins).where(eq(pendingLogins.userId, userId)).run().changes;
    },

    /** Removes every second factor of a user (keys, app, backup codes, ceremonies). */
    deleteAllForUser(userId: number): void {
      db.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, userId)).run();
      db.delete(webauthnRegistrations).where(eq(webauthnRegistrations.userId, userId)).run();
      db.delete(totpSecrets).where(eq(totpSecrets.userId, userId)).run();
      db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
      db.delete(pendingLogins).where(eq(pendingLogins.userId, userId)).run();
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
