import { createBackupService } from './backups/service.ts';
import type { BeverageRepository } from './beverages/repository.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createExportRepository } from './export/repository.ts';
import { createExportService } from './export/service.ts';
import { createImportCellar } from './imports/cellar-writes.ts';
import { createImportRepository } from './imports/repository.ts';
import { createImportService } from './imports/service.ts';
import type { MediaStore } from './media/images.ts';
import type { ShareRepository } from './shares/repository.ts';
import { createCellarStatsRepository } from './stats/cellar-repository.ts';
import { createStatsRepository } from './stats/repository.ts';
import { createStatsService } from './stats/service.ts';
import type { UserRepository } from './users/repository.ts';

/**
 * The data part of the context (src/context.ts): a user's vault in and out (imports, exports),
 * the admin's backups, and the statistics. Reads and writes tables directly, sending nothing:
 * an imported entry is not an activity.
 */
export function createDataContext(
  config: Config,
  database: DatabaseHandle,
  options: {
    entries: BeverageRepository;
    users: UserRepository;
    media: MediaStore;
    shares: ShareRepository;
    now: () => number;
  },
) {
  const { users, media, now } = options;
  // Imports write entries straight through the repository: no activity, no federation.
  const imports = createImportService({
    dataDir: config.dataDir,
    entries: options.entries,
    keys: createImportRepository(database.database),
    users,
    media,
    shares: options.shares,
    cellar: createImportCellar(database),
    transaction: database.transaction,
    now,
  });
  return {
    imports,
    exports: createExportService({
      repo: createExportRepository(database.database),
      users,
      media,
      now,
    }),
    backups: createBackupService(config, now),
    stats: createStatsService({
      repo: createStatsRepository(database.database, { now }),
      cellar: createCellarStatsRepository(database.database, { now }),
      now,
    }),
  };
}
