import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import {
  backupDownloadUrl,
  createBackup,
  deleteBackup,
  fetchBackups,
  type Backup,
  type BackupList,
} from '../api/backups.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDateTime } from '../people/dates.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import { LockIcon } from '../ui/icons.tsx';
import '../ui/account-list.css';
import './backups.css';

/** GET /backups in the query cache (the Admin Console's Backups section only). */
const BACKUPS_KEY = ['backups'] as const;

export const BACKUP_MADE = 'Backup made';
export const BACKUP_DELETED = 'Backup deleted';

/** '12.3 MB', '840 KB'. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** 'Every 24 hours, keeping the last 7' or 'Off'. */
export function describeSchedule(schedule: BackupList['schedule']): string {
  if (schedule.intervalHours === null) return 'Scheduled backups are off.';
  const hours = schedule.intervalHours;
  return `A scheduled backup every ${hours} ${hours === 1 ? 'hour' : 'hours'}, keeping the last ${schedule.keep}.`;
}

function DeleteBackupDialog({
  backup,
  onCancel,
  onDeleted,
}: {
  backup: Backup;
  onCancel: () => void;
  onDeleted: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const removing = useMutation({
    mutationFn: () => deleteBackup(backup.name),
    onSuccess: onDeleted,
    onError: (caught) => setError(messageOf(caught, 'Failed to delete the backup')),
  });
  return (
    <Dialog
      title="Delete this backup?"
      onClose={onCancel}
      size="small"
      description={`${formatDateTime(backup.createdAt)} (${formatSize(backup.sizeBytes)}). It cannot be brought back.`}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={removing.isPending}
            onClick={() => removing.mutate()}
          >
            {removing.isPending ? 'Deleting…' : 'Delete'}
          </button>
        </>
      }
    >
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}

/**
 * The Admin Console's Backups section: make a backup of the whole vault now (database and
 * photos in one ZIP), download or delete the backups kept on the server, and the schedule.
 */
export function BackupsPanel() {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: BACKUPS_KEY, queryFn: fetchBackups });
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const making = useMutation({
    mutationFn: createBackup,
    onSuccess: () => notifySuccess(BACKUP_MADE),
    onSettled: () => queryClient.invalidateQueries({ queryKey: BACKUPS_KEY }),
  });
  const backups = query.data?.backups ?? null;
  const sectionRef = useRef<HTMLElement>(null);
  useKeepFocus(sectionRef);
  const error = making.error
    ? messageOf(making.error, 'Failed to make the backup')
    : query.error
      ? messageOf(query.error, 'Unable to load backups')
      : null;

  return (
    <section ref={sectionRef} className="panel admin-panel admin-backups" aria-labelledby={titleId}>
      <div className="admin-panel__header">
        <h2 id={titleId} className="panel__title admin-panel__title">
          <span className="admin-panel__icon" aria-hidden="true">
            <LockIcon />
          </span>
          Backups
        </h2>
        <button
          type="button"
          className="button button--primary"
          onClick={() => making.mutate()}
          disabled={making.isPending}
        >
          {making.isPending ? 'Backing up…' : 'Back up now'}
        </button>
      </div>
      <p className="admin-panel__intro">
        A backup holds the whole vault: every user, entry and photo, in one ZIP file kept on the
        server. {query.data ? describeSchedule(query.data.schedule) : null}
      </p>
      {backups === null && !error && <p className="list-status">Loading backups…</p>}
      {backups !== null &&
        (backups.length === 0 ? (
          <p className="account-panel__muted">No backups yet.</p>
        ) : (
          <ul className="account-list" aria-label="Backups">
            {backups.map((backup) => (
              <li key={backup.name} className="account-list__item">
                <div className="account-list__body">
                  <p className="account-list__name">{formatDateTime(backup.createdAt)}</p>
                  <p className="account-list__meta">
                    <span>{backup.trigger === 'scheduled' ? 'Scheduled' : 'Made by hand'}</span>
                    <span>{formatSize(backup.sizeBytes)}</span>
                  </p>
                </div>
                <a
                  className="button button--secondary button--small"
                  href={backupDownloadUrl(backup.name)}
                  download={backup.name}
                  aria-label={`Download the backup of ${formatDateTime(backup.createdAt)}`}
                >
                  Download
                </a>
                <button
                  type="button"
                  className="button button--danger-quiet button--small"
                  onClick={() => setDeleting(backup)}
                  aria-label={`Delete the backup of ${formatDateTime(backup.createdAt)}`}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        ))}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {deleting && (
        <DeleteBackupDialog
          backup={deleting}
          onCancel={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            notifySuccess(BACKUP_DELETED);
            void queryClient.invalidateQueries({ queryKey: BACKUPS_KEY });
          }}
        />
      )}
    </section>
  );
}
