import type { Database } from '../db/database.ts';
import { optionalRow, rowReader, storedValue } from '../db/rows.ts';
import {
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

const readCredential = rowReader(webauthnCredentials);
const readOptionalCredential = optionalRow(readCredential);
const readOptionalRegistration = optionalRow(rowReader(webauthnRegistrations));
const readOptionalTotp = optionalRow(rowReader(totpSecrets));
const readOptionalPending = optionalRow(rowReader(pendingLogins));

/** The statements of the repository, prepared once. */
function statements(db: Database) {
  return {
    credentialsOf: db.prepare(
      'SELECT * FROM webauthn_credentials WHERE user_id = ? ORDER BY created_at ASC, id ASC',
    ),
    countCredentials: db
      .prepare('SELECT count(*) FROM webauthn_credentials WHERE user_id = ?')
      .pluck<number>(),
    credentialById: db.prepare('SELECT * FROM webauthn_credentials WHERE id = ?'),
    credentialByCredentialId: db.prepare(
      'SELECT * FROM webauthn_credentials WHERE credential_id = ?',
    ),
    insertCredential: db.prepare(
      `INSERT INTO webauthn_credentials
         (user_id, credential_id, public_key, counter, transports, user_handle, device_type,
          backed_up, nickname, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    deleteCredential: db.prepare('DELETE FROM webauthn_credentials WHERE id = ?'),
    recordCredentialUse: db.prepare(
      `UPDATE webauthn_credentials SET counter = ?, last_used_at = ?, backed_up = ?, device_type = ?
       WHERE id = ?`,
    ),
    putRegistration: db.prepare(
      `INSERT INTO webauthn_registrations (session_id_hash, user_id, challenge, user_handle, expires_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (session_id_hash) DO UPDATE SET user_id = excluded.user_id,
         challenge = excluded.challenge, user_handle = excluded.user_handle,
         expires_at = excluded.expires_at`,
    ),
    takeRegistration: db.prepare(
      'DELETE FROM webauthn_registrations WHERE session_id_hash = ? RETURNING *',
    ),
    totpOf: db.prepare('SELECT * FROM totp_secrets WHERE user_id = ?'),
    putTotp: db.prepare(
      `INSERT INTO totp_secrets (user_id, secret, confirmed, last_used_step, created_at)
       VALUES (?, ?, 0, NULL, ?)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, confirmed = 0,
         last_used_step = NULL, created_at = excluded.created_at`,
    ),
    confirmTotp: db.prepare(
      'UPDATE totp_secrets SET confirmed = 1, last_used_step = ? WHERE user_id = ? AND confirmed = 0',
    ),
    useTotpStep: db.prepare(
      `UPDATE totp_secrets SET last_used_step = ?
       WHERE user_id = ? AND confirmed = 1 AND (last_used_step IS NULL OR last_used_step < ?)`,
    ),
    deleteTotp: db.prepare('DELETE FROM totp_secrets WHERE user_id = ?'),
    deleteUnconfirmedTotp: db.prepare(
      'DELETE FROM totp_secrets WHERE user_id = ? AND confirmed = 0',
    ),
    deleteBackupCodes: db.prepare('DELETE FROM backup_codes WHERE user_id = ?'),
    insertBackupCode: db.prepare(
      'INSERT INTO backup_codes (user_id, code_hash, used_at, created_at) VALUES (?, ?, NULL, ?)',
    ),
    useBackupCode: db.prepare(
      `UPDATE backup_codes SET used_at = ?
       WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`,
    ),
    countUnusedBackupCodes: db
      .prepare('SELECT count(*) FROM backup_codes WHERE user_id = ? AND used_at IS NULL')
      .pluck<number>(),
    insertPending: db.prepare(
      `INSERT INTO pending_logins (id_hash, user_id, kind, challenge, attempts, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    findPending: db.prepare('SELECT * FROM pending_logins WHERE id_hash = ?'),
    deletePending: db.prepare('DELETE FROM pending_logins WHERE id_hash = ?'),
    addPendingAttempt: db
      .prepare(
        'UPDATE pending_logins SET attempts = attempts + 1 WHERE id_hash = ? RETURNING attempts',
      )
      .pluck<number>(),
    deleteExpiredPending: db.prepare('DELETE FROM pending_logins WHERE expires_at < ?'),
    deletePendingOfUser: db.prepare('DELETE FROM pending_logins WHERE user_id = ?'),
    deleteCredentialsOfUser: db.prepare('DELETE FROM webauthn_credentials WHERE user_id = ?'),
    deleteRegistrationsOfUser: db.prepare('DELETE FROM webauthn_registrations WHERE user_id = ?'),
  };
}

/**
 * Data access for second factors: security keys, registration ceremonies, authenticator-app
 * secrets, backup codes and pending logins. The only code that queries those tables.
 */
export function createSecondFactorRepository(db: Database) {
  const q = statements(db);
  return {
    /**
     * Runs `fn` in one transaction (src/db/database.ts). `fn` must await only the database:
     * every check-and-mark of a factor happens inside one, after any other await, so two
     * requests cannot both pass.
     */
    transaction<T>(fn: () => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },

    // Security keys -----------------------------------------------------------------------

    async listCredentials(userId: number): Promise<WebauthnCredentialRow[]> {
      return (await q.credentialsOf.all(userId)).map(readCredential);
    },
    async countCredentials(userId: number): Promise<number> {
      return (await q.countCredentials.get(userId)) ?? 0;
    },
    async findCredential(id: number): Promise<WebauthnCredentialRow | undefined> {
      return readOptionalCredential(await q.credentialById.get(id));
    },
    async findCredentialByCredentialId(
      credentialId: string,
    ): Promise<WebauthnCredentialRow | undefined> {
      return readOptionalCredential(await q.credentialByCredentialId.get(credentialId));
    },
    async insertCredential(values: NewWebauthnCredential): Promise<WebauthnCredentialRow> {
      const row = await q.insertCredential.get(
        values.userId,
        values.credentialId,
        values.publicKey,
        values.counter,
        storedValue(webauthnCredentials, 'transports', values.transports),
        values.userHandle,
        values.deviceType,
        values.backedUp ? 1 : 0,
        values.nickname,
        values.createdAt.getTime(),
      );
      return readCredential(row);
    },
    async deleteCredential(id: number): Promise<number> {
      return (await q.deleteCredential.run(id)).changes;
    },
    /** Records a successful assertion. */
    async recordCredentialUse(
      id: number,
      use: Pick<WebauthnCredentialRow, 'counter' | 'lastUsedAt' | 'backedUp' | 'deviceType'>,
    ): Promise<void> {
      await q.recordCredentialUse.run(
        use.counter,
        use.lastUsedAt?.getTime() ?? null,
        use.backedUp ? 1 : 0,
        use.deviceType,
        id,
      );
    },

    // Registration ceremonies ---------------------------------------------------------------

    /** Starts (or restarts) the registration ceremony of a session. */
    async putRegistration(row: WebauthnRegistrationRow): Promise<void> {
      await q.putRegistration.run(
        row.sessionIdHash,
        row.userId,
        row.challenge,
        row.userHandle,
        row.expiresAt.getTime(),
      );
    },
    /** Removes and returns a session's registration ceremony: a challenge is used once. */
    async takeRegistration(sessionIdHash: string): Promise<WebauthnRegistrationRow | undefined> {
      return readOptionalRegistration(await q.takeRegistration.get(sessionIdHash));
    },

    // Authenticator app ---------------------------------------------------------------------

    async findTotp(userId: number): Promise<TotpSecretRow | undefined> {
      return readOptionalTotp(await q.totpOf.get(userId));
    },
    /** Stores a new, unconfirmed secret, replacing any earlier one. */
    async putTotp(userId: number, secret: string, createdAt: Date): Promise<void> {
      await q.putTotp.run(userId, secret, createdAt.getTime());
    },
    /** Confirms an unconfirmed secret with the step of its first code. */
    async confirmTotp(userId: number, step: number): Promise<boolean> {
      return (await q.confirmTotp.run(step, userId)).changes === 1;
    },
    /**
     * Marks a time step as used, only if it is later than the last one used: a code is
     * accepted at most once. False when another request used this step (or a later one) first.
     */
    async useTotpStep(userId: number, step: number): Promise<boolean> {
      return (await q.useTotpStep.run(step, userId, step)).changes === 1;
    },
    /** Deletes the secret and the backup codes, together. */
    deleteTotp(userId: number): Promise<void> {
      return db.transaction(async () => {
        await q.deleteTotp.run(userId);
        await q.deleteBackupCodes.run(userId);
      });
    },
    /** Deletes an unconfirmed secret and its backup codes; a confirmed one stays. */
    deleteUnconfirmedTotp(userId: number): Promise<void> {
      return db.transaction(async () => {
        const deleted = (await q.deleteUnconfirmedTotp.run(userId)).changes;
        if (deleted > 0) await q.deleteBackupCodes.run(userId);
      });
    },

    // Backup codes --------------------------------------------------------------------------

    /** Replaces a user's backup codes, in one transaction. */
    replaceBackupCodes(userId: number, codeHashes: string[], createdAt: Date): Promise<void> {
      return db.transaction(async () => {
        await q.deleteBackupCodes.run(userId);
        for (const codeHash of codeHashes) {
          await q.insertBackupCode.run(userId, codeHash, createdAt.getTime());
        }
      });
    },
    /** Marks an unused backup code as used. False when it does not exist or was used. */
    async useBackupCode(userId: number, codeHash: string, usedAt: Date): Promise<boolean> {
      return (await q.useBackupCode.run(usedAt.getTime(), userId, codeHash)).changes === 1;
    },
    async countUnusedBackupCodes(userId: number): Promise<number> {
      return (await q.countUnusedBackupCodes.get(userId)) ?? 0;
    },

    // Pending logins ------------------------------------------------------------------------

    async insertPending(row: PendingLoginRow): Promise<void> {
      await q.insertPending.run(
        row.idHash,
        row.userId,
        row.kind,
        row.challenge,
        row.attempts,
        row.createdAt.getTime(),
        row.expiresAt.getTime(),
      );
    },
    async findPending(idHash: string): Promise<PendingLoginRow | undefined> {
      return readOptionalPending(await q.findPending.get(idHash));
    },
    async deletePending(idHash: string): Promise<boolean> {
      return (await q.deletePending.run(idHash)).changes === 1;
    },
    /** Counts one failed second step; returns the new count (0 if the row is gone). */
    async addPendingAttempt(idHash: string): Promise<number> {
      return (await q.addPendingAttempt.get(idHash)) ?? 0;
    },
    async deleteExpiredPending(now: Date): Promise<number> {
      return (await q.deleteExpiredPending.run(now.getTime())).changes;
    },
    async deletePendingForUser(userId: number): Promise<number> {
      return (await q.deletePendingOfUser.run(userId)).changes;
    },

    /** Removes every second factor of a user (keys, app, backup codes, ceremonies), together. */
    deleteAllForUser(userId: number): Promise<void> {
      return db.transaction(async () => {
        await q.deleteCredentialsOfUser.run(userId);
        await q.deleteRegistrationsOfUser.run(userId);
        await q.deleteTotp.run(userId);
        await q.deleteBackupCodes.run(userId);
        await q.deletePendingOfUser.run(userId);
      });
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
