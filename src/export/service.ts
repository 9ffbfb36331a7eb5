import type { Readable } from 'node:stream';
import { forbidden, notFound } from '../domain-error.ts';
import type { UserRow } from '../db/schema/index.ts';
import type { ExportRepository } from './repository.ts';

export interface ExportDeps {
  repo: ExportRepository;
  users: { findByUsername(username: string): Promise<UserRow | undefined> };
  media: { locate(storedPath: string): string | undefined };
  now?: () => number;
}

/** A vault's export: its file name and the ZIP's bytes as they are made. */
export interface VaultExport {
  fileName: string;
  stream: Readable;
}

/** 'vault-<username>-<YYYY-MM-DD>.zip' (the date in UTC). */
export function exportFileName(username: string, at: Date): string {
  return `vault-${username}-${at.toISOString().slice(0, 10)}.zip`;
}

/**
 * Export of a user's own entries (not the entries others shared with them) with their photos,
 * cellar and tastings:
 * see src/export/archive.ts for the ZIP and contract/export.ts for its files.
 */
export function createExportService(deps: ExportDeps) {
  const now = deps.now ?? Date.now;

  async function exportOf(owner: UserRow): Promise<VaultExport> {
    // The ZIP and CSV writers (yazl, csv-stringify) load with the first export.
    const { exportArchive } = await import('./archive.ts');
    const exportedAt = new Date(now());
    const stream = exportArchive({
      user: { username: owner.username, fullName: owner.fullName },
      exportedAt,
      page: (afterId, limit) => deps.repo.page(owner.id, afterId, limit),
      locatePhoto: (storedPath) => deps.media.locate(storedPath),
      cellar: {
        places: () => deps.repo.cellar.places(owner.id),
        bottles: (afterId, limit) => deps.repo.cellar.bottles(owner.id, afterId, limit),
        events: (afterId, limit) => deps.repo.cellar.events(owner.id, afterId, limit),
        tastings: (afterId, limit) => deps.repo.cellar.tastings(owner.id, afterId, limit),
      },
    });
    return { fileName: exportFileName(owner.username, exportedAt), stream };
  }

  return {
    /**
     * The export `viewer` asked for: their own vault, or with `username` another user's, which
     * only an admin may export.
     */
    async exportFor(viewer: UserRow, username?: string): Promise<VaultExport> {
      if (username === undefined || username === viewer.username) return exportOf(viewer);
      if (viewer.role !== 'ADMIN') throw forbidden("Only an admin can export another user's vault");
      const owner = await deps.users.findByUsername(username);
      if (!owner) throw notFound(`No user named ${username.slice(0, 64)}`);
      return exportOf(owner);
    },

    /** The command line's export (`npm run vault -- export --username NAME`). */
    async exportUser(username: string): Promise<VaultExport> {
      const owner = await deps.users.findByUsername(username);
      if (!owner) throw notFound(`No user named ${username.slice(0, 64)}`);
      return exportOf(owner);
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
