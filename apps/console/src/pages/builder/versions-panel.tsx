// Published versions, what each changed from the one before (and the draft from the published one), rollback.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { Spinner, asApiError, when } from '../../ui.js';
import type { Definition } from './definition.js';
import { diffDefinitions } from './diff.js';
import { publisherName } from './publisher.js';

interface VersionRow {
  version: number;
  createdAt: string;
  note: string | null;
  publishedBy: string | null;
  published: boolean;
}
const EMPTY: Definition = { schemaVersion: 1, startJourney: '', variables: [], journeys: [] };

export function VersionsPanel(props: { base: string; draft: Definition; canEdit: boolean; onRolledBack: (v: number) => void; onEditVersion: (d: Definition) => void }) {
  const [rows, setRows] = useState<VersionRow[] | null>(null);
  const [emails, setEmails] = useState<Map<string, string> | null>(null);
  const [defs, setDefs] = useState<Record<number, Definition>>({});
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    try {
      const r = await api<{ versions: VersionRow[] }>('GET', `${props.base}/versions`);
      // The newest 20 with their documents: each one's changes are counted against the one before.
      const docs = await Promise.all(r.versions.slice(0, 21).map((v) => api<{ definition: Definition }>('GET', `${props.base}/versions/${v.version}`).then((d) => [v.version, d.definition] as const)));
      setDefs(Object.fromEntries(docs));
      // Every member may read the members (viewer and up); without them a publisher is just "a member".
      const members = await api<{ members: Array<{ userId: string; email: string }> }>('GET', `${props.base.replace(/\/builder$/, '')}/members`).catch(() => null);
      setEmails(members && new Map(members.members.map((m) => [m.userId, m.email])));
      setRows(r.versions);
    } catch (err) {
      setError(asApiError(err).message);
    }
  };
  useEffect(() => void load(), [props.base]);
  if (error) return <div class="notice error" role="alert">{`The versions could not be read: ${error}`}</div>;
  if (!rows) return <Spinner label="Reading the versions…" />;
  const published = rows.find((r) => r.published);
  const draftChanges = diffDefinitions(published ? (defs[published.version] ?? EMPTY) : EMPTY, props.draft);
  return (
    <section aria-labelledby="versions-title" class="versions">
      <h2 id="versions-title">Versions</h2>
      <h3>The draft against {published ? `version ${published.version} (published)` : 'nothing published'}</h3>
      <Changes lines={draftChanges} testId="draft-changes" />
      {rows.length === 0 && <p class="muted">Nothing published yet: publish the draft to make version 1.</p>}
      <ul class="version-list">
        {rows.map((r, i) => {
          const before = rows[i + 1] ? defs[rows[i + 1]!.version] : EMPTY;
          const doc = defs[r.version];
          return (
            <li data-testid={`version-${r.version}`}>
              <strong>Version {r.version}</strong> {r.published && <span class="badge">published</span>}{' '}
              <span class="muted">
                {when(r.createdAt)}
                {r.publishedBy ? ` · by ${publisherName(r.publishedBy, emails)}` : ''}
              </span>
              {r.note && <p>{r.note}</p>}
              {doc && before ? (
                <details>
                  <summary>What changed from {rows[i + 1] ? `version ${rows[i + 1]!.version}` : 'nothing'}</summary>
                  <Changes lines={diffDefinitions(before, doc)} />
                </details>
              ) : (
                <p class="muted">Older than the 20 newest: its changes are not counted here.</p>
              )}
              <div class="row-actions">
                {props.canEdit && !r.published && (
                  <button
                    type="button"
                    class="secondary"
                    onClick={async () => {
                      try {
                        await api('POST', `${props.base}/versions/${r.version}/rollback`);
                        props.onRolledBack(r.version);
                        await load();
                      } catch (err) {
                        setError(asApiError(err).message);
                      }
                    }}
                  >
                    Roll back to version {r.version}
                  </button>
                )}
                {props.canEdit && doc && (
                  <button type="button" class="secondary outline" onClick={() => props.onEditVersion(doc)}>
                    Edit a copy of version {r.version}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Changes({ lines, testId }: { lines: string[]; testId?: string }) {
  if (lines.length === 0)
    return (
      <p class="muted" data-testid={testId}>
        No changes.
      </p>
    );
  return (
    <ul class="changes" data-testid={testId}>
      {lines.map((l) => (
        <li>{l}</li>
      ))}
    </ul>
  );
}
