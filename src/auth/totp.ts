import { createHash, randomBytes } from 'node:crypto';
import type { TotpSetupData } from '../../contract/auth.ts';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { UserRow } from '../db/schema/index.ts';
import { DomainError, badRequest, conflict, notFound } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { verifyPassword } from './passwords.ts';
import type { SecondFactorRepository } from './second-factor-repository.ts';
import { settle, type LoginThrottle } from './throttle.ts';

export const TOTP_ISSUER = 'The Vault';
export const BACKUP_CODE_COUNT = 10;
/** 32 symbols (no I, O, 0, 1): 5 bits each; 25 of them make 125 bits per code. */
const BACKUP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const BACKUP_CODE_LENGTH = 25;
const BACKUP_GROUP = 5;
/**
 * Codes issued before were 12 symbols (60 bits). Stored ones keep working until used or
 * replaced by setting the app up again; new ones are never that short.
 */
const LEGACY_BACKUP_CODE_LENGTH = 12;
/** Codes of the previous and the next 30-second step are accepted too (clock drift). */
const EPOCH_TOLERANCE_SECONDS = 30;
const PERIOD_SECONDS = 30;

export const KEY_EXISTS =
  'Remove your security keys before setting up an authenticator app. Only one second factor can be on at a time.';
export const TOTP_ALREADY_ON =
  'The authenticator app is already on. Turn it off before setting it up again.';
export const TOTP_NOT_STARTED = 'Start the authenticator app setup first.';
export const TOTP_NOT_ON = 'The authenticator app is not on.';
export const INVALID_CODE = 'Invalid authentication code';
export const INVALID_BACKUP_CODE = 'Invalid backup code';
export const WRONG_PASSWORD_OR_CODE = 'The password or the authentication code is not correct';

/** What POST /api/totp/setup answers (the contract's TotpSetupData). */
export type TotpSetup = TotpSetupData;

/** A backup code as shown: five groups of five, 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2'. */
export function generateBackupCode(): string {
  // 256 is a multiple of 32, so `byte % 32` is uniform.
  const bytes = randomBytes(BACKUP_CODE_LENGTH);
  let code = '';
  for (const b of bytes) code += BACKUP_ALPHABET[b % BACKUP_ALPHABET.length];
  return code.match(new RegExp(`.{${BACKUP_GROUP}}`, 'g'))!.join('-');
}

/** Upper case, letters and digits only: how a backup code is compared. */
export function normalizeBackupCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * SHA-256 without a salt: with 125 random bits per code neither a dictionary nor a
 * precomputed table helps, and a fast hash keeps the sign-in check cheap.
 */
export function hashBackupCode(code: string): string {
  return createHash('sha256').update(normalizeBackupCode(code)).digest('hex');
}

export interface TotpDeps {
  repo: SecondFactorRepository;
  users: UserRepository;
  throttle: LoginThrottle;
  now?: () => number;
}

/**
 * The authenticator app (TOTP, RFC 6238 with otplib: SHA-1, 6 digits, 30 s) with single-use
 * backup codes. A code is accepted at most once: the last used time step is stored and only a
 * later step passes. Mutually exclusive with security keys.
 */
export function createTotpService({ repo, users, throttle, now = Date.now }: TotpDeps) {
  /** The time step of a valid code later than `afterStep`, or undefined. Synchronous. */
  function matchCode(secret: string, token: string, afterStep: number | null): number | undefined {
    if (!/^\d{6}$/.test(token)) return undefined;
    const epoch = Math.floor(now() / 1000);
    const currentStep = Math.floor(epoch / PERIOD_SECONDS);
    // A stored step beyond the window (the clock went back) would make otplib throw.
    if (afterStep !== null && afterStep > currentStep + 1) return undefined;
    try {
      const result = verifySync({
        secret,
        token,
        epoch,
        epochTolerance: EPOCH_TOLERANCE_SECONDS,
        ...(afterStep !== null && { afterTimeStep: afterStep }),
      });
      return result.valid && 'timeStep' in result ? result.timeStep : undefined;
    } catch {
      return undefined;
    }
  }

  async function assertNoKeys(userId: number) {
    if ((await repo.countCredentials(userId)) > 0) throw conflict(KEY_EXISTS);
  }

  return {
    /** A new secret and backup codes, replacing an unconfirmed setup. Shown once. */
    async setup(user: UserRow): Promise<TotpSetup> {
      if (user.totpEnabled) throw conflict(TOTP_ALREADY_ON);
      await assertNoKeys(user.id);
      const secret = generateSecret();
      const otpAuthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.username, secret });
      // Loaded on first use: only setting up the app needs a QR code.
      const { default: QRCode } = await import('qrcode');
      const qrCode = await QRCode.toDataURL(otpAuthUrl, { errorCorrectionLevel: 'M', margin: 2 });
      const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, generateBackupCode);
      await repo.transaction(async () => {
        // After the other awaits: check again, then write.
        const fresh = await users.findById(user.id);
        if (!fresh) throw notFound('User not found');
        if (fresh.totpEnabled) throw conflict(TOTP_ALREADY_ON);
        await assertNoKeys(user.id);
        const t = new Date(now());
        await repo.putTotp(user.id, secret, t);
        await repo.replaceBackupCodes(user.id, backupCodes.map(hashBackupCode), t);
      });
      return { secret, otpAuthUrl, qrCode, backupCodes };
    },

    /** Confirms the setup with a first code: the authenticator app is on. */
    async confirm(user: UserRow, token: string, address: string): Promise<UserRow> {
      const attempt = throttle.reserve(user.username, address);
      const outcome = await settle(attempt, () =>
        repo.transaction(async () => {
          const fresh = await users.findById(user.id);
          if (!fresh) throw notFound('User not found');
          if (fresh.totpEnabled) throw conflict(TOTP_ALREADY_ON);
          await assertNoKeys(user.id);
          const row = await repo.findTotp(user.id);
          if (!row || row.confirmed) throw badRequest(TOTP_NOT_STARTED);
          const step = matchCode(row.secret, token, null);
          if (step === undefined) return 'wrong' as const;
          await repo.confirmTotp(user.id, step);
          const updated = await users.update(user.id, { totpEnabled: true });
          if (!updated) throw notFound('User not found');
          return updated;
        }),
      );
      if (outcome === 'wrong') throw badRequest(INVALID_CODE);
      return outcome;
    },

    /** Turns the authenticator app off: needs the password and a current code. */
    async disable(user: UserRow, token: string, password: string, address: string) {
      if (!user.totpEnabled) throw conflict(TOTP_NOT_ON);
      // Taken before the slow hash: parallel guesses cannot all pass the check first.
      const attempt = throttle.reserve(user.username, address);
      const passwordOk = await verifyPassword(user.passwordHash, password);
      const outcome = await settle(attempt, () =>
        repo.transaction(async () => {
          const fresh = await users.findById(user.id);
          if (!fresh) throw notFound('User not found');
          if (!fresh.totpEnabled) throw conflict(TOTP_NOT_ON);
          // The hash may have changed while it was being verified.
          if (!passwordOk || fresh.passwordHash !== user.passwordHash) return 'wrong' as const;
          const row = await repo.findTotp(user.id);
          const step = row?.confirmed ? matchCode(row.secret, token, row.lastUsedStep) : undefined;
          if (step === undefined || !(await repo.useTotpStep(user.id, step))) {
            return 'wrong' as const;
          }
          await repo.deleteTotp(user.id);
          const updated = await users.update(user.id, { totpEnabled: false });
          if (!updated) throw notFound('User not found');
          return updated;
        }),
      );
      if (outcome === 'wrong') throw badRequest(WRONG_PASSWORD_OR_CODE);
      return outcome;
    },

    /**
     * Checks and uses a code or a backup code at sign-in. Awaits only the database: call it
     * inside the transaction that also ends the pending login, so a code serves exactly one
     * sign-in.
     */
    async useForSignIn(userId: number, token: string, backup: boolean): Promise<boolean> {
      const row = await repo.findTotp(userId);
      if (!row?.confirmed) return false;
      if (backup) {
        const normalized = normalizeBackupCode(token);
        const { length } = normalized;
        if (length !== BACKUP_CODE_LENGTH && length !== LEGACY_BACKUP_CODE_LENGTH) return false;
        return repo.useBackupCode(userId, hashBackupCode(normalized), new Date(now()));
      }
      const step = matchCode(row.secret, token, row.lastUsedStep);
      return step !== undefined && (await repo.useTotpStep(userId, step));
    },

    /** Unused backup codes left (for the profile page). */
    backupCodesLeft(userId: number): Promise<number> {
      return repo.countUnusedBackupCodes(userId);
    },
  };
}

export type TotpService = ReturnType<typeof createTotpService>;

/** A 4xx for a failed second step at sign-in (wrong code or backup code). */
export const invalidSecondStep = (backup: boolean) =>
  new DomainError(401, backup ? INVALID_BACKUP_CODE : INVALID_CODE);
