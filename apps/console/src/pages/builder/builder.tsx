// The bot builder (docs/console.md#bot-builder): a journey as a graph, a form per node, variables, a JSON
// view, draft, publish, versions with what changed, rollback, and a try-it pane on the real runtime.
// Loaded only when the builder is opened (lazy.tsx): xyflow and elkjs stay out of the console's first load.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Bot, api, roleAtLeast } from '../../api.js';
import { Icon } from '../../icon.js';
import { TriangleAlert } from '../../icons.js';
import { Spinner, asApiError, when } from '../../ui.js';
import { type BotNode, type Definition, type DefinitionError, type Journey, KIND_LABELS, NODE_KINDS, type NodeKind, starterDefinition } from './definition.js';
import { DRAG_TYPE, FlowCanvas } from './flow-canvas.js';
import { type Point, addNode, connect, freshId, disconnect, nodeErrors, removeNode, toFlow, updateNode } from './graph.js';
import { layoutJourney } from './layout.js';
import { NodeForm } from './node-form.js';
import { TryIt } from './try-it.js';
import { type LocalCopy, dropLocalCopy, readLocalCopy, useLeaveGuard, writeLocalCopy } from './unsaved.js';
import { VariablesPanel } from './variables-panel.js';
import { VersionsPanel } from './versions-panel.js';
import './builder.css';

interface DraftAnswer {
  draft: Definition | null;
  draftUpdatedAt: string | null;
  publishedVersion: number | null;
}
type View = 'flow' | 'variables' | 'json' | 'versions';
const VIEWS: Array<[View, string]> = [
  ['flow', 'Flow'],
  ['variables', 'Variables'],
  ['json', 'JSON'],
  ['versions', 'Versions'],
];

export default function BuilderPage({ bot, userId }: { bot: Bot; userId: string }) {
  const base = `/v1/bots/${bot.id}/builder`;
  const canEdit = roleAtLeast(bot.role, 'developer');
  const [def, setDef] = useState<Definition | null>(null);
  const [savedJson, setSavedJson] = useState<string | null>(null);
  // What the builder opened with (the draft, else the published version, else the starter): unchanged, nothing is unsaved.
  const [loadedJson, setLoadedJson] = useState<string | null>(null);
  const [draftUpdatedAt, setDraftUpdatedAt] = useState<string | null>(null);
  const [offered, setOffered] = useState<LocalCopy | null>(null);
  const [published, setPublished] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [slug, setSlug] = useState('');
  // `seq` names the node form: a new selection draws a new form, a rename of the selected node keeps it (node-form.tsx).
  const [selection, setSelection] = useState<{ id: string | null; seq: number }>({ id: null, seq: 0 });
  const selected = selection.id;
  const setSelected = (id: string | null) => setSelection((s) => (s.id === id ? s : { id, seq: s.seq + 1 }));
  const [focus, setFocus] = useState<{ id: string; seq: number } | null>(null);
  const [positions, setPositions] = useState<Record<string, Record<string, Point>>>({});
  // A journey's first view on the canvas (shown, or laid out again) fits all its nodes until the person edits or touches it.
  const [fitKey, setFitKey] = useState<string | null>(null);
  const views = useRef(0);
  const [errors, setErrors] = useState<DefinitionError[]>([]);
  // What runs but probably not as meant (docs/bots.md): shown beside the errors, never stops a save or a publish.
  const [warnings, setWarnings] = useState<DefinitionError[]>([]);
  const [view, setView] = useState<View>('flow');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const formRef = useRef<HTMLDivElement>(null);
  const checks = useRef(0);

  const load = async () => {
    try {
      const answer = await api<DraftAnswer>('GET', `${base}/definition`);
      let start = answer.draft;
      if (!start && answer.publishedVersion !== null) start = (await api<{ definition: Definition }>('GET', `${base}/versions/${answer.publishedVersion}`)).definition;
      setSavedJson(answer.draft ? JSON.stringify(answer.draft) : null);
      setPublished(answer.publishedVersion);
      setDraftUpdatedAt(answer.draftUpdatedAt);
      const d = start ?? starterDefinition();
      setDef(d);
      setLoadedJson(JSON.stringify(d));
      const copy = readLocalCopy(userId, bot.id);
      if (copy && JSON.stringify(copy.definition) !== JSON.stringify(d)) setOffered(copy);
      else if (copy) dropLocalCopy(userId, bot.id);
      setSlug((s) => (d.journeys.some((j) => j.slug === s) ? s : (d.journeys[0]?.slug ?? '')));
    } catch (err) {
      setLoadError(asApiError(err).message);
    }
  };
  useEffect(() => void load(), [bot.id]);

  // The server's validator checks every change (the same one that saves and publishes: its errors name journey, node and field).
  useEffect(() => {
    if (!def) return;
    const timer = setTimeout(() => {
      // Only the newest check's answer counts: an older one may arrive after it.
      const n = ++checks.current;
      api<{ ok: boolean; errors: DefinitionError[]; warnings: DefinitionError[] }>('POST', `${base}/validate`, def).then(
        (r) => {
          if (n !== checks.current) return;
          setErrors(r.errors);
          setWarnings(r.warnings);
        },
        () => undefined,
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [def]);

  const defJson = useMemo(() => (def ? JSON.stringify(def) : null), [def]);
  const unsaved = defJson !== null && defJson !== (savedJson ?? loadedJson);
  useLeaveGuard(unsaved);
  // The copy in this browser follows the edits; it goes once they are saved. Not while a copy is offered:
  // the page's own definition must not overwrite it before the person has chosen.
  useEffect(() => {
    if (!def || offered) return;
    if (!unsaved) return dropLocalCopy(userId, bot.id);
    const timer = setTimeout(() => writeLocalCopy(userId, bot.id, def, draftUpdatedAt), 300);
    return () => clearTimeout(timer);
  }, [defJson, unsaved, offered]);

  const journey = def?.journeys.find((j) => j.slug === slug);
  // Lay out a journey the first time it is shown; moved nodes keep their places after.
  useEffect(() => {
    if (!journey || positions[journey.slug]) return;
    void layoutJourney(journey).then((p) => {
      setPositions((all) => ({ ...all, [journey.slug]: p }));
      setFitKey(`${journey.slug}:${++views.current}`);
    });
  }, [journey?.slug, !!positions[slug]]);
  useEffect(() => setFitKey(slug ? `${slug}:${++views.current}` : null), [slug]);

  const flow = useMemo(() => (journey ? toFlow(journey, positions[journey.slug] ?? {}, errors, warnings) : { nodes: [], edges: [] }), [journey, positions, errors, warnings]);

  if (loadError) return <div class="notice error" role="alert">{`The bot's definition could not be read: ${loadError}`}</div>;
  if (!def || !journey) return <Spinner label="Opening the builder…" />;

  const dirty = defJson !== savedJson;
  // From the definition as it is when the update runs, not as this render saw it: two edits before the
  // next render (a field's change, then a connection) would otherwise have the second undo the first.
  // An edit ends the first view's fitting: the view stays where the person is working.
  const editJourney = (f: (j: Journey) => Journey) => (setFitKey(null), setDef((d) => d && { ...d, journeys: d.journeys.map((j) => (j.slug === journey.slug ? f(j) : j)) }));
  const node = journey.nodes.find((n) => n.id === selected);
  const byNode = nodeErrors(errors, journey.slug);
  const warnedNodes = nodeErrors(warnings, journey.slug);
  const elsewhere = [...errors, ...warnings].filter((e) => !(e.journey === journey.slug && e.node));
  const pick = (e: DefinitionError) => (setView('flow'), setSlug(e.journey!), setSelected(e.node!));

  const add = (kind: NodeKind, at?: Point) => {
    // Named here, added to the journey as it is when the update runs (as every edit is).
    const id = freshId(journey, kind);
    const first = def.journeys[0]!.slug;
    editJourney((j) => addNode(j, kind, first, id).journey);
    const place = at ?? { x: 0, y: Math.max(0, ...Object.values(positions[journey.slug] ?? {}).map((p) => p.y)) + 130 };
    setPositions((all) => ({ ...all, [journey.slug]: { ...all[journey.slug], [id]: place } }));
    setSelected(id);
    setStatus({ kind: 'success', text: `Added ${KIND_LABELS[kind]} node ${id}` });
    // The keyboard's path goes on in the new node's form.
    setTimeout(() => formRef.current?.querySelector<HTMLElement>('input, textarea, select')?.focus(), 0);
  };
  const run = async (what: () => Promise<string>) => {
    setBusy(true);
    setStatus(null);
    try {
      setStatus({ kind: 'success', text: await what() });
    } catch (err) {
      setStatus({ kind: 'error', text: asApiError(err).message });
    } finally {
      setBusy(false);
    }
  };
  const putDraft = async () => {
    const answer = await api<{ draftUpdatedAt: string; warnings: DefinitionError[] }>('PUT', `${base}/definition`, def);
    setSavedJson(JSON.stringify(def));
    setDraftUpdatedAt(answer.draftUpdatedAt);
    return answer.warnings;
  };
  const save = () =>
    run(async () => {
      const warned = await putDraft();
      return `Draft saved${withWarnings(warned)}`;
    });
  const publish = () =>
    run(async () => {
      if (dirty) await putDraft();
      const r = await api<{ version: number; warnings: DefinitionError[] }>('POST', `${base}/publish`, note ? { note } : {});
      setPublished(r.version);
      setNote('');
      return `Published version ${r.version}: new conversations start on it${withWarnings(r.warnings)}`;
    });
  const saveForTry = async () => {
    if (dirty) await putDraft();
  };

  return (
    <section class="builder">
      <header class="builder-head">
        <h1>Bot builder</h1>
        <p class="muted">
          {published === null ? 'Not published: the bot answers through its webhook.' : `Version ${published} is published.`}{' '}
          {savedJson === null ? 'No draft saved yet.' : dirty ? 'Unsaved changes.' : 'The draft is saved.'}
        </p>
      </header>
      <div class="builder-bar">
        <label for="journey-select" class="inline">
          Journey
          <select id="journey-select" value={journey.slug} onChange={(e) => (setSlug((e.target as HTMLSelectElement).value), setSelected(null))}>
            {def.journeys.map((j) => (
              <option value={j.slug}>
                {j.name ? `${j.name} (${j.slug})` : j.slug}
                {def.startJourney === j.slug ? ' · start' : ''}
              </option>
            ))}
          </select>
        </label>
        {canEdit && (
          <>
            <button type="button" class="secondary outline" onClick={() => addJourney(def, setDef, setSlug)}>
              Add a journey
            </button>
            <button type="button" onClick={save} disabled={busy} aria-busy={busy}>
              Save draft
            </button>
            <label for="publish-note" class="inline">
              Note
              <input id="publish-note" value={note} maxLength={200} placeholder="What changed" onInput={(e) => setNote((e.target as HTMLInputElement).value)} />
            </label>
            <button type="button" onClick={publish} disabled={busy}>
              Publish
            </button>
          </>
        )}
      </div>
      <div role="status" aria-live="polite" class="builder-status">
        {status && <div class={`notice ${status.kind}`}>{status.text}</div>}
      </div>
      {offered && (
        <div class="notice warning" data-testid="builder-local-copy">
          <p>
            Changes made on {when(offered.savedAt)} were not saved, and this browser kept them.
            {offered.basedOn !== draftUpdatedAt && ' The draft has been saved since (here or by another member): restoring them and saving replaces that draft.'}
          </p>
          <button
            type="button"
            onClick={() => {
              setDef(offered.definition);
              setSlug((s) => (offered.definition.journeys.some((j) => j.slug === s) ? s : (offered.definition.journeys[0]?.slug ?? '')));
              setSelected(null);
              setPositions({});
              setOffered(null);
              setStatus({ kind: 'success', text: 'Unsaved changes restored: save the draft to keep them' });
            }}
          >
            Restore them
          </button>{' '}
          <button type="button" class="secondary outline" onClick={() => (dropLocalCopy(userId, bot.id), setOffered(null), setStatus({ kind: 'success', text: 'Unsaved changes discarded' }))}>
            Discard them
          </button>
        </div>
      )}
      {errors.length > 0 && (
        <ProblemList kind="error" problems={errors} onPick={pick}>
          {errors.length} {errors.length === 1 ? 'problem' : 'problems'} to fix before saving
        </ProblemList>
      )}
      {warnings.length > 0 && (
        <ProblemList kind="warning" problems={warnings} onPick={pick}>
          <Icon node={TriangleAlert} /> {warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`}: the bot runs, but maybe not as you mean (saving and publishing go ahead)
        </ProblemList>
      )}
      <nav aria-label="Builder views" class="builder-views">
        <ul>
          {VIEWS.map(([v, label]) => (
            <li>
              <button type="button" class={view === v ? '' : 'secondary outline'} aria-pressed={view === v} onClick={() => setView(v)}>
                {label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div class="builder-grid">
        <div class="builder-main">
          {view === 'flow' && (
            <>
              {canEdit && (
                <ul class="palette" aria-label="Add a node (drag onto the canvas, or press)">
                  {NODE_KINDS.map((kind) => (
                    <li>
                      <button type="button" class="secondary outline palette-item" draggable onDragStart={(e) => e.dataTransfer?.setData(DRAG_TYPE, kind)} onClick={() => add(kind)}>
                        + {KIND_LABELS[kind]}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <FlowCanvas
                nodes={flow.nodes}
                edges={flow.edges}
                onMove={(id, p) => setPositions((all) => ({ ...all, [journey.slug]: { ...all[journey.slug], [id]: p } }))}
                onSelect={setSelected}
                focus={focus}
                fitKey={fitKey}
                onConnect={(from, label, to) => canEdit && editJourney((j) => connect(j, from, label, to))}
                onDisconnect={(from, label) => canEdit && editJourney((j) => disconnect(j, from, label))}
                onDelete={(id) => canEdit && editJourney((j) => removeNode(j, id))}
                onDropKind={(kind, at) => canEdit && add(kind, at)}
              />
              <div class="node-list">
                <h2>Nodes of {journey.slug}</h2>
                <ul>
                  {journey.nodes.map((n) => (
                    <li>
                      <button type="button" class={selected === n.id ? '' : 'secondary outline'} aria-pressed={selected === n.id} onClick={() => setSelected(n.id)}>
                        {n.id} · {KIND_LABELS[n.kind]}
                        {byNode.has(n.id) ? ` · ${byNode.get(n.id)!.length} ${byNode.get(n.id)!.length === 1 ? 'error' : 'errors'}` : ''}
                        {warnedNodes.has(n.id) ? ` · ${warnedNodes.get(n.id)!.length} ${warnedNodes.get(n.id)!.length === 1 ? 'warning' : 'warnings'}` : ''}
                      </button>
                    </li>
                  ))}
                </ul>
                {elsewhere.length > 0 && <p class="muted">Problems outside this journey's nodes are listed above.</p>}
              </div>
            </>
          )}
          {view === 'variables' && <VariablesPanel def={def} onChange={setDef} readOnly={!canEdit} />}
          {view === 'json' && <JsonView def={def} onApply={(d) => (setDef(d), setSlug(d.journeys[0]?.slug ?? ''), setPositions({}))} readOnly={!canEdit} />}
          {view === 'versions' && (
            <VersionsPanel
              base={base}
              draft={def}
              canEdit={canEdit}
              onRolledBack={(v) => (setPublished(v), setStatus({ kind: 'success', text: `Rolled back: new conversations start on version ${v}` }))}
              onEditVersion={(d) => (setDef(d), setPositions({}), setView('flow'))}
            />
          )}
        </div>
        <aside class="builder-side" ref={formRef}>
          {view === 'flow' &&
            (node ? (
              <NodeForm
                key={`${journey.slug}/${selection.seq}`}
                def={def}
                journey={journey}
                node={node}
                errors={byNode.get(node.id) ?? []}
                warnings={warnedNodes.get(node.id) ?? []}
                onEdit={(id, edit) => editJourney((j) => editNode(j, id, edit))}
                onRename={(from, to) => {
                  editJourney((j) => (j.nodes.some((n) => n.id === to) ? j : editNode(j, from, (n) => ({ ...n, id: to }))));
                  setSelection((s) => (s.id === from ? { ...s, id: to } : s));
                  // The node keeps its place on the canvas under its new id.
                  setPositions((all) => {
                    const { [from]: at, ...others } = all[journey.slug] ?? {};
                    return at ? { ...all, [journey.slug]: { ...others, [to]: at } } : all;
                  });
                }}
                onConnect={(id, label, to) => editJourney((j) => (to ? connect(j, id, label, to) : disconnect(j, id, label)))}
                onDelete={(id) => (editJourney((j) => removeNode(j, id)), setSelected(null), setStatus({ kind: 'success', text: `Deleted node ${id}` }))}
                onStart={(id) => editJourney((j) => ({ ...j, start: id }))}
              />
            ) : (
              <p class="muted">Select a node (on the canvas or in the list of nodes) to edit it.</p>
            ))}
          <TryIt
            bot={bot}
            base={base}
            beforeStart={saveForTry}
            canRun={canEdit && errors.length === 0}
            picked={{ journey: slug, node: selected }}
            onPick={(j, n) => (setView('flow'), setSlug(j), setSelected(n), setFocus({ id: n, seq: (focus?.seq ?? 0) + 1 }))}
          />
        </aside>
      </div>
    </section>
  );
}

/** The journey with node `id` changed by `edit`, applied to the node as it is now; unchanged when there is no such node. */
function editNode(journey: Journey, id: string, edit: (node: BotNode) => BotNode): Journey {
  const node = journey.nodes.find((n) => n.id === id);
  return node ? updateNode(journey, id, edit(node)) : journey;
}

/** After "Draft saved" or "Published …": the warnings it went ahead with, which the list above names. */
function withWarnings(warnings: DefinitionError[] | undefined): string {
  const n = warnings?.length ?? 0;
  return n === 0 ? '' : ` (with ${n === 1 ? '1 warning' : `${n} warnings`}, listed above)`;
}

/** The errors (refuse a save or publish) or the warnings (never do), each a link to the node it names. */
function ProblemList({ kind, problems, onPick, children }: { kind: 'error' | 'warning'; problems: DefinitionError[]; onPick: (e: DefinitionError) => void; children: ComponentChildren }) {
  return (
    <details class={`notice ${kind} builder-problems`} open data-testid={`builder-${kind}s`}>
      <summary>{children}</summary>
      <ul>
        {problems.map((e) => (
          <li>
            {e.node && e.journey ? (
              <button type="button" class="link" onClick={() => onPick(e)}>
                {e.journey}/{e.node}
                {e.field ? ` · ${e.field}` : ''}
              </button>
            ) : (
              <strong>{[e.journey, e.field].filter(Boolean).join(' · ') || 'definition'}</strong>
            )}
            : {e.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

function addJourney(def: Definition, setDef: (d: Definition) => void, setSlug: (s: string) => void) {
  let n = def.journeys.length + 1;
  while (def.journeys.some((j) => j.slug === `journey-${n}`)) n++;
  const slug = `journey-${n}`;
  setDef({ ...def, journeys: [...def.journeys, { slug, start: 'hello', nodes: [{ id: 'hello', kind: 'message', text: 'Hello!' }], edges: [] }] });
  setSlug(slug);
}

function JsonView({ def, onApply, readOnly }: { def: Definition; onApply: (d: Definition) => void; readOnly: boolean }) {
  const [text, setText] = useState(() => JSON.stringify(def, null, 2));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(JSON.stringify(def, null, 2)), [def]);
  return (
    <form
      class="json-view"
      onSubmit={(e) => {
        e.preventDefault();
        try {
          const parsed = JSON.parse(text) as Definition;
          if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.journeys)) throw new Error('the document needs a journeys array');
          setError(null);
          onApply(parsed);
        } catch (err) {
          setError(`Not applied: ${err instanceof Error ? err.message : String(err)}`);
        }
      }}
    >
      <label for="definition-json">The definition as JSON (GET /v1/bot-definition.schema.json is its schema)</label>
      <textarea
        id="definition-json"
        rows={24}
        spellcheck={false}
        value={text}
        readOnly={readOnly}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'json-error' : undefined}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      {error && (
        <p id="json-error" class="field-error" role="alert">
          {error}
        </p>
      )}
      {!readOnly && <button type="submit">Apply JSON</button>}
    </form>
  );
}
