import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of the environment. Everything else receives a Config.
 * Documented in docs/configuration.md, README.md (Configuration) and .env.example.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The SQLite file, used when no PostgreSQL database is configured (databaseUrl). */
  databasePath: string;
  /**
   * A PostgreSQL database to run on instead of the SQLite file (docs/scaling.md); null for
   * the embedded SQLite default.
   */
  databaseUrl: string | null;
  /** Connections each process keeps to PostgreSQL. */
  databasePoolSize: number;
  uploadsDir: string;
  /** Public origin without trailing slash, e.g. https://vault.example.com */
  origin: string;
  adminUsername: string;
  adminPassword: string | undefined;
  adminEmail: string;
  /** Trust X-Forwarded-For for the client address (only behind a reverse proxy you run). */
  trustProxy: boolean;
  /**
   * Let outbound federation requests (actor, key and document fetches, deliveries' lookups)
   * reach private, loopback and link-local addresses. Off by default; for LAN setups and tests.
   */
  allowPrivateAddress: boolean;
  /** The size of the RSA keys made for actors (HTTP signatures); existing keys stay. */
  rsaKeyBits: number;
  logLevel: 'debug' | 'info' | 'warning' | 'error';
  /** Directory holding the built client (index.html and assets). */
  webDistDir: string;
  /** Serve the client's source maps (/assets/*.map); off by default, for debugging. */
  serveSourceMaps: boolean;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** Where backup ZIPs go (never under a folder the web serves); src/backups/. */
  backupDir: string;
  /** Hours between scheduled backups; null when off (VAULT_BACKUP_INTERVAL_HOURS=0). */
  backupIntervalHours: number | null;
  /** How many scheduled backups are kept. */
  backupKeep: number;
  /** Minutes between sweeps of the uploads folder for what a crash left (src/media/sweep.ts). */
  uploadsSweepIntervalMinutes: number;
  /** Bounds on what remote servers store here (src/inbound-limits/, docs/federation.md). */
  inbound: {
    /** Entries, replies or cheers (each kind counted apart) one remote actor sends per hour. */
    perActorPerHour: number;
    /** The same for all actors of one server together. */
    perServerPerHour: number;
    /** Entries of one remote actor kept at most. */
    storedEntriesPerActor: number;
  };
  /** Requests one access token may make per minute (src/tokens/rate-limit.ts). */
  tokenRequestsPerMinute: number;
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    message: 'must be true or false (also accepted: 1, 0, yes, no)',
  })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveHours = z.coerce.number().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  VAULT_DATA_DIR: z.string().min(1).default('./data'),
  VAULT_DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/\S+$/,
      'must be a PostgreSQL URL such as postgres://vault:secret@db.example.com:5432/vault',
    )
    .optional(),
  VAULT_DATABASE_POOL: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(500, 'must be at most 500')
    .default(10),
  VAULT_ORIGIN: z
    .url({
      protocol: /^https?$/,
      message: 'must be an http(s) URL such as https://vault.example.com',
    })
    .optional(),
  VAULT_ADMIN_USERNAME: z
    .string()
    .regex(/^[a-z0-9_]{3,30}$/, '3-30 lowercase letters, digits or underscores')
    .default('admin'),
  VAULT_ADMIN_EMAIL: z.email('must be an email address such as admin@example.com').optional(),
  VAULT_ADMIN_PASSWORD: z
    .string()
    .min(8, 'must be at least 8 characters long')
    .max(256, 'must be at most 256 characters long')
    .optional(),
  VAULT_TRUST_PROXY: booleanFlag.default(false),
  VAULT_ALLOW_PRIVATE_ADDRESS: booleanFlag.default(false),
  VAULT_RSA_KEY_BITS: z
    .enum(['2048', '3072', '4096'], { error: 'must be 2048, 3072 or 4096' })
    .default('4096'),
  VAULT_SERVE_SOURCE_MAPS: booleanFlag.default(false),
  VAULT_LOG_LEVEL: z.enum(['debug', 'info', 'warning', 'error']).default('info'),
  VAULT_SESSION_IDLE_HOURS: positiveHours.default(24 * 7),
  VAULT_SESSION_MAX_HOURS: positiveHours.default(24 * 30),
  VAULT_BACKUP_DIR: z.string().min(1).optional(),
  VAULT_BACKUP_INTERVAL_HOURS: z.coerce.number().min(0, 'must be 0 (off) or more').default(24),
  VAULT_BACKUP_KEEP: z.coerce.number().int().min(1, 'must be at least 1').default(7),
  VAULT_UPLOADS_SWEEP_MINUTES: z.coerce.number().min(1, 'must be at least 1').default(60),
  VAULT_INBOUND_PER_ACTOR_HOUR: z.coerce.number().int().min(1, 'must be at least 1').default(60),
  VAULT_INBOUND_PER_SERVER_HOUR: z.coerce.number().int().min(1, 'must be at least 1').default(300),
  VAULT_REMOTE_ENTRIES_PER_ACTOR: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .default(5000),
  VAULT_TOKEN_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .default(120),
});

export class ConfigError extends Error {}

const HOUR = 60 * 60 * 1000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Treat empty strings as unset so `VAR=` in a .env file means "use the default".
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.VAULT_DATA_DIR);
  const origin = new URL(e.VAULT_ORIGIN ?? `http://localhost:${e.PORT}`).origin;
  if (e.VAULT_SESSION_MAX_HOURS < e.VAULT_SESSION_IDLE_HOURS) {
    throw new ConfigError(
      'Invalid configuration:\n  VAULT_SESSION_MAX_HOURS: must not be shorter than VAULT_SESSION_IDLE_HOURS',
    );
  }
  const backupDir = path.resolve(e.VAULT_BACKUP_DIR ?? path.join(dataDir, 'backups'));
  const webDistDir = path.resolve(import.meta.dirname, '..', 'web', 'dist');
  for (const served of [path.join(dataDir, 'uploads'), webDistDir]) {
    if (`${backupDir}${path.sep}`.startsWith(`${served}${path.sep}`)) {
      throw new ConfigError(
        `Invalid configuration:\n  VAULT_BACKUP_DIR: must not be inside ${served}, which the web serves`,
      );
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databasePath: path.join(dataDir, 'vault.sqlite'),
    databaseUrl: e.VAULT_DATABASE_URL ?? null,
    databasePoolSize: e.VAULT_DATABASE_POOL,
    uploadsDir: path.join(dataDir, 'uploads'),
    origin,
    adminUsername: e.VAULT_ADMIN_USERNAME,
    adminPassword: e.VAULT_ADMIN_PASSWORD,
    adminEmail: e.VAULT_ADMIN_EMAIL ?? `${e.VAULT_ADMIN_USERNAME}@example.com`,
    trustProxy: e.VAULT_TRUST_PROXY,
    allowPrivateAddress: e.VAULT_ALLOW_PRIVATE_ADDRESS,
    rsaKeyBits: Number(e.VAULT_RSA_KEY_BITS),
    logLevel: e.VAULT_LOG_LEVEL,
    webDistDir,
    serveSourceMaps: e.VAULT_SERVE_SOURCE_MAPS,
    sessionIdleMs: e.VAULT_SESSION_IDLE_HOURS * HOUR,
    sessionAbsoluteMs: e.VAULT_SESSION_MAX_HOURS * HOUR,
    backupDir,
    backupIntervalHours: e.VAULT_BACKUP_INTERVAL_HOURS > 0 ? e.VAULT_BACKUP_INTERVAL_HOURS : null,
    backupKeep: e.VAULT_BACKUP_KEEP,
    uploadsSweepIntervalMinutes: e.VAULT_UPLOADS_SWEEP_MINUTES,
    inbound: {
      perActorPerHour: e.VAULT_INBOUND_PER_ACTOR_HOUR,
      perServerPerHour: e.VAULT_INBOUND_PER_SERVER_HOUR,
      storedEntriesPerActor: e.VAULT_REMOTE_ENTRIES_PER_ACTOR,
    },
    tokenRequestsPerMinute: e.VAULT_TOKEN_REQUESTS_PER_MINUTE,
  };
}
