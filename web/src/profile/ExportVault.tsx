import type { RouteKey } from '../../../contract/routes/index.ts';
import { pathOf } from '../api/call.ts';
import { API_PREFIX } from '../api/client.ts';
import { Panel } from './Panel.tsx';

/** What GET /api/export answers: the signed-in user's vault as a ZIP (contract/export.ts). */
export const EXPORT_URL = API_PREFIX + pathOf('GET /export' satisfies RouteKey);

/**
 * 'Export my vault': a plain link, so the browser streams the ZIP straight to a file (a vault
 * with thousands of photos never passes through the page's memory) under the name the server
 * gives it, vault-<username>-<date>.zip.
 */
export function ExportVault() {
  return (
    <Panel
      title="Export my vault"
      intro={
        <>
          Download every entry of yours as a ZIP: <code>entries.csv</code> for spreadsheets,{' '}
          <code>entries.json</code> with everything, and your photos in <code>photos/</code>.
          Entries others shared with you stay in their vaults.
        </>
      }
    >
      <p>
        <a className="button button--secondary" href={EXPORT_URL} download>
          Export my vault
        </a>
      </p>
    </Panel>
  );
}
