import { parseArgs } from 'node:util';
import { BACKUP_USAGE, runBackupCommand } from './backups/cli.ts';
import { EXPORT_USAGE, runExportCommand } from './export/cli.ts';
import { generatePassword } from './auth/passwords.ts';
import { resetSecondFactors } from './auth/second-factor-reset.ts';
import { createSessionRepository } from './auth/session-repository.ts';
import { createSessionService } from './auth/sessions.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { DomainError } from './domain-error.ts';
import { parseWith } from './http/body.ts';
import { createUserRepository } from './users/repository.ts';
import {
  emailSchema,
  fullNameSchema,
  passwordSchema,
  roleSchema,
  usernameSchema,
} from '../contract/users.ts';
import { createUserService } from './users/service.ts';

const USAGE = `Usage: npm run vault -- <command> [options]

Commands:
  create-user     --username NAME --full-name "Full Name" --email ADDRESS [--role USER|ADMIN] [--password PASSWORD]
  reset-password  --username NAME [--password PASSWORD]
  reset-second-factor --username NAME   (removes security keys and the authenticator app)
  list-users
${BACKUP_USAGE}
${EXPORT_USAGE}

Without --password a strong password is generated and printed once.
A password reset also signs the user out everywhere.`;

/** The self-hoster's command line: works on the same data directory as the server. */
export async function runCli(argv: string[], env = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  // Before the database is opened: a restore replaces it.
  if (command === 'backup' || command === 'restore') {
    return runBackupCommand(command, rest, loadConfig(env));
  }
  if (command === 'export') return runExportCommand(rest, loadConfig(env));
  const { values } = parseArgs({
    args: rest,
    options: {
      username: { type: 'string' },
      'full-name': { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'USER' },
      password: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig(env);
  // The configured database: the SQLite file of the data directory, or PostgreSQL.
  const database = openConfiguredDatabase(config);
  try {
    await database.ready;
    const users = createUserRepository(database.database);
    const sessions = createSessionService(createSessionRepository(database.database), {
      idleMs: config.sessionIdleMs,
      absoluteMs: config.sessionAbsoluteMs,
    });
    const service = createUserService(users, sessions, database.transaction);
    const password = values.password ?? generatePassword();
    const passwordNote = values.password ? '' : `\nPassword: ${password}  (shown once)`;
    switch (command) {
      case 'create-user': {
        const user = await service.create({
          username: parseWith(usernameSchema, values.username),
          fullName: parseWith(fullNameSchema, values['full-name']),
          email: parseWith(emailSchema, values.email),
          role: parseWith(roleSchema, values.role?.toUpperCase()),
          password: parseWith(passwordSchema, password),
        });
        console.log(
          `Created ${user.role === 'ADMIN' ? 'admin' : 'user'} ${user.username}${passwordNote}`,
        );
        return 0;
      }
      case 'reset-password': {
        const user = await service.resetPassword(
          parseWith(usernameSchema, values.username),
          parseWith(passwordSchema, password),
        );
        console.log(
          `Reset the password of ${user.username} and ended their sessions${passwordNote}`,
        );
        return 0;
      }
      case 'reset-second-factor': {
        const user = await resetSecondFactors(
          database.database,
          parseWith(usernameSchema, values.username),
        );
        console.log(
          `Removed the security keys and authenticator app of ${user.username}; the password alone signs in now`,
        );
        return 0;
      }
      case 'list-users': {
        for (const u of await service.list())
          console.log(`${u.username}\t${u.role}\t${u.fullName}\t${u.email}`);
        return 0;
      }
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 1;
    }
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await runCli(process.argv.slice(2));
  } catch (error) {
    if (
      error instanceof DomainError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      console.error((error as Error).message);
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}
