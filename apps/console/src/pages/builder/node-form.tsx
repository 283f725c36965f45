// A form for each node kind, plus its connections: the keyboard's way to build what the canvas builds by dragging.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../../icon.js';
import { TriangleAlert } from '../../icons.js';
import { type BotNode, type Button, type Definition, type Journey, KIND_LABELS, exitLabels } from './definition.js';
import { targetOf } from './graph.js';

interface Props {
  def: Definition;
  journey: Journey;
  node: BotNode;
  errors: string[];
  /** What runs but probably not as meant: shown apart from the errors, never stops a save or a publish. */
  warnings: string[];
  /**
   * Each callback names the node by its id as of the latest rename, which an event handler of a render made
   * before that rename would not know; `onEdit`'s edit is applied to the node as it is when the update runs.
   */
  onEdit: (id: string, edit: (node: BotNode) => BotNode) => void;
  onRename: (from: string, to: string) => void;
  onConnect: (id: string, label: string, to: string | null) => void;
  onDelete: (id: string) => void;
  onStart: (id: string) => void;
}

const buttonsText = (list: unknown) => ((list as Button[] | undefined) ?? []).map((b) => b.title).join(', ');
const buttonsOf = (text: string): Button[] | undefined => {
  const titles = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return titles.length ? titles.map((title) => ({ title })) : undefined;
};
const value = (e: Event) => (e.target as HTMLInputElement).value;

/** Fields to change: given, or worked out from the node as it is when the change is applied. */
type Patch = Record<string, unknown> | ((node: BotNode) => Record<string, unknown>);
/** The node with `patch`'s fields; an undefined or empty one is removed. */
function patched(node: BotNode, patch: Patch): BotNode {
  const fields = typeof patch === 'function' ? patch(node) : patch;
  const next: BotNode = { ...node, ...fields };
  for (const [k, v] of Object.entries(fields)) if (v === undefined || v === '') delete next[k];
  return next;
}

/**
 * The form stays mounted when its node is renamed (the builder keys it by the selection, not the id), so a
 * field being typed in is not replaced under the person. `current` follows a rename at once: an edit made in
 * the same instant, by a handler of the render before it, still reaches the renamed node.
 */
export function NodeForm({ def, journey, node, errors, warnings, onEdit, onRename, onConnect, onDelete, onStart }: Props) {
  const current = useRef(node.id);
  current.current = node.id;
  const id = (f: string) => `node-${f}`;
  const set = (patch: Patch) => onEdit(current.current, (n) => patched(n, patch));
  const rename = (to: string) => {
    const from = current.current;
    if (to === from) return;
    current.current = to;
    onRename(from, to);
  };
  const fieldError = (field: string) => errors.filter((e) => e.startsWith(`${field}:`) || e.startsWith(`${field}.`) || e.startsWith(`${field}[`));
  const invalid = (field: string) => (fieldError(field).length ? { 'aria-invalid': 'true' as const, 'aria-describedby': 'node-errors' } : {});
  const text = (field: string, label: string, props: JSX.IntrinsicElements['input'] = {}) => (
    <label for={id(field)}>
      {label}
      <input id={id(field)} value={(node[field] as string | undefined) ?? ''} onChange={(e) => set({ [field]: value(e) })} {...invalid(field)} {...props} />
    </label>
  );
  const area = (field: string, label: string) => (
    <label for={id(field)}>
      {label}
      <textarea id={id(field)} rows={3} value={(node[field] as string | undefined) ?? ''} onChange={(e) => set({ [field]: value(e) })} {...invalid(field)} />
    </label>
  );
  const variableSelect = (field: string, label: string, current: string | undefined, pick: (v: string | undefined) => void) => (
    <label for={id(field)}>
      {label}
      <select id={id(field)} value={current ?? ''} onChange={(e) => pick(value(e) || undefined)} {...invalid(field)}>
        <option value="">(none)</option>
        {def.variables.map((v) => (
          <option value={v.name}>
            {v.name} ({v.type})
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <form class="node-form" aria-label={`Node ${node.id}`} onSubmit={(e) => e.preventDefault()}>
      <h3>
        {KIND_LABELS[node.kind]} <code>{node.id}</code>
        {journey.start === node.id && <span class="badge">start</span>}
      </h3>
      {errors.length > 0 && (
        <ul id="node-errors" class="notice error node-errors" data-testid="node-form-errors">
          {errors.map((e) => (
            <li>{e}</li>
          ))}
        </ul>
      )}
      {warnings.length > 0 && (
        <div id="node-warnings" class="notice warning node-warnings" data-testid="node-form-warnings">
          <Icon node={TriangleAlert} />
          <div>
            <p>
              <strong>{warnings.length === 1 ? 'Warning' : `${warnings.length} warnings`}</strong> (saving and publishing go ahead)
            </p>
            <ul>
              {warnings.map((w) => (
                <li>{w}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      <NodeIdField journey={journey} node={node} rename={rename} />
      {text('label', 'Label (shown in the trace)')}
      {node.kind === 'message' && (
        <>
          {area('text', 'Text')}
          <label for={id('quickReplies')}>
            Quick replies (comma-separated)
            <input id={id('quickReplies')} value={buttonsText(node.quickReplies)} onChange={(e) => set({ quickReplies: buttonsOf(value(e)) })} />
          </label>
        </>
      )}
      {node.kind === 'question' && <QuestionFields node={node} set={set} area={area} text={text} variableSelect={variableSelect} />}
      {node.kind === 'condition' && <Branches node={node} set={set} />}
      {node.kind === 'function' && (
        <>
          {area('code', 'Code (JavaScript, run in the sandbox)')}
          {variableSelect('variable', 'Store the result in', node.variable as string | undefined, (v) => set({ variable: v }))}
        </>
      )}
      {node.kind === 'http' && (
        <>
          <label for={id('method')}>
            Method
            <select id={id('method')} value={node.method as string} onChange={(e) => set({ method: value(e) })}>
              {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                <option>{m}</option>
              ))}
            </select>
          </label>
          {text('url', 'URL (a template; {{secrets.NAME}} reads a secret)')}
        </>
      )}
      {node.kind === 'set' && <Assignments def={def} node={node} set={set} />}
      {node.kind === 'goto' && (
        <label for={id('journey')}>
          Journey
          <select id={id('journey')} value={node.journey as string} onChange={(e) => set({ journey: value(e) })} {...invalid('journey')}>
            {def.journeys.map((j) => (
              <option value={j.slug}>{j.slug}</option>
            ))}
          </select>
        </label>
      )}
      {node.kind === 'handoff' && (
        <>
          {area('text', 'Text before handing off')}
          {text('reason', 'Reason')}
        </>
      )}
      {node.kind === 'end' && area('text', 'Text')}
      <fieldset>
        <legend>Connections</legend>
        {exitLabels(node).length === 0 && <small>This node leaves by no edge.</small>}
        {exitLabels(node).map((label) => (
          <label for={id(`connect-${label}`)}>
            Connect {label} to…
            <select id={id(`connect-${label}`)} value={targetOf(journey, node.id, label) ?? ''} onChange={(e) => onConnect(current.current, label, value(e) || null)}>
              <option value="">(nothing)</option>
              {journey.nodes
                .filter((n) => n.id !== node.id)
                .map((n) => (
                  <option value={n.id}>
                    {n.id} ({KIND_LABELS[n.kind]})
                  </option>
                ))}
            </select>
          </label>
        ))}
      </fieldset>
      <div class="row-actions">
        {journey.start !== node.id && (
          <button type="button" class="secondary outline" onClick={() => onStart(current.current)}>
            Make it the start
          </button>
        )}
        <button type="button" class="secondary" onClick={() => onDelete(current.current)}>
          Delete node
        </button>
      </div>
    </form>
  );
}

/**
 * The node's id, renamed when the field is left (or on Enter), not on each key: every id typed on the way
 * ("" first, when it is typed over) would be a rename of its own, followed through the edges and the start.
 * An id another node of the journey has is refused (a rename onto it would merge the two nodes). What is
 * committed is the field's value when it is left, not this render's copy of it: a value typed and left in
 * the same instant has not been drawn yet.
 */
function NodeIdField({ journey, node, rename }: { journey: Journey; node: BotNode; rename: (to: string) => void }) {
  const [typed, setTyped] = useState(node.id);
  useEffect(() => setTyped(node.id), [node.id]);
  const isTaken = (to: string) => to !== node.id && journey.nodes.some((n) => n.id === to);
  const next = typed.trim();
  const taken = isTaken(next);
  const commit = (field: EventTarget | null) => {
    const to = (field as HTMLInputElement).value.trim();
    if (to && !isTaken(to)) rename(to);
  };
  return (
    <label for="node-id">
      Node id
      <input
        id="node-id"
        value={typed}
        pattern="[A-Za-z0-9_\-]{1,64}"
        aria-invalid={taken ? 'true' : undefined}
        aria-describedby={taken ? 'node-id-error' : undefined}
        onInput={(e) => setTyped(value(e))}
        onBlur={(e) => commit(e.currentTarget)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          commit(e.currentTarget);
        }}
      />
      {taken && (
        <small id="node-id-error" class="field-error">
          Node {next} is already in journey {journey.slug}: pick another id
        </small>
      )}
    </label>
  );
}

type Setter = (patch: Patch) => void;

function QuestionFields({
  node,
  set,
  area,
  text,
  variableSelect,
}: {
  node: BotNode;
  set: Setter;
  area: (f: string, l: string) => JSX.Element;
  text: (f: string, l: string, p?: JSX.IntrinsicElements['input']) => JSX.Element;
  variableSelect: (f: string, l: string, c: string | undefined, p: (v: string | undefined) => void) => JSX.Element;
}) {
  const answer = (node.answer as { type: string; choices?: Button[] } | undefined) ?? { type: 'text' };
  return (
    <>
      {area('text', 'Question')}
      <label for="node-answer-type">
        Answer
        <select
          id="node-answer-type"
          value={answer.type}
          onChange={(e) => {
            const type = value(e);
            set((n) => {
              const choices = (n.answer as { choices?: Button[] } | undefined)?.choices;
              return { answer: type === 'choice' ? { type, choices: choices ?? [{ title: 'Yes' }, { title: 'No' }] } : { type } };
            });
          }}
        >
          {['text', 'number', 'email', 'phone', 'choice'].map((t) => (
            <option>{t}</option>
          ))}
        </select>
      </label>
      {answer.type === 'choice' && (
        <label for="node-choices">
          Choices (comma-separated)
          <input id="node-choices" value={buttonsText(answer.choices)} onChange={(e) => set({ answer: { type: 'choice', choices: buttonsOf(value(e)) ?? [] } })} />
        </label>
      )}
      {variableSelect('variable', 'Store the answer in', (node.variable as string) || undefined, (v) => set({ variable: v ?? '' }))}
      {text('retryPrompt', 'Asked again with')}
    </>
  );
}

function Branches({ node, set }: { node: BotNode; set: Setter }) {
  const of = (n: BotNode) => (n.branches as Array<{ id: string; when: string }> | undefined) ?? [];
  const branches = of(node);
  const put = (i: number, patch: Partial<{ id: string; when: string }>) => set((n) => ({ branches: of(n).map((b, j) => (j === i ? { ...b, ...patch } : b)) }));
  return (
    <fieldset>
      <legend>Branches (the first true one is followed, else "else")</legend>
      {branches.map((b, i) => (
        <div class="pair">
          <label>
            Branch {i + 1} id
            <input value={b.id} onChange={(e) => put(i, { id: value(e) })} />
          </label>
          <label>
            Branch {i + 1} when (an expression)
            <input value={b.when} onChange={(e) => put(i, { when: value(e) })} />
          </label>
          <button type="button" class="secondary outline" onClick={() => set((n) => ({ branches: of(n).filter((_, j) => j !== i) }))}>
            Remove branch {i + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary outline" onClick={() => set((n) => ({ branches: [...of(n), { id: `branch-${of(n).length + 1}`, when: 'true' }] }))}>
        Add a branch
      </button>
    </fieldset>
  );
}

function Assignments({ def, node, set }: { def: Definition; node: BotNode; set: Setter }) {
  const of = (n: BotNode) => (n.assignments as Array<{ variable: string; value: string }> | undefined) ?? [];
  const list = of(node);
  const put = (i: number, patch: Partial<{ variable: string; value: string }>) => set((n) => ({ assignments: of(n).map((a, j) => (j === i ? { ...a, ...patch } : a)) }));
  return (
    <fieldset>
      <legend>Assignments</legend>
      {list.map((a, i) => (
        <div class="pair">
          <label>
            Variable {i + 1}
            <select value={a.variable} onChange={(e) => put(i, { variable: value(e) })}>
              {def.variables.map((v) => (
                <option>{v.name}</option>
              ))}
            </select>
          </label>
          <label>
            Value {i + 1} (an expression)
            <input value={a.value} onChange={(e) => put(i, { value: value(e) })} />
          </label>
          <button type="button" class="secondary outline" onClick={() => set((n) => ({ assignments: of(n).filter((_, j) => j !== i) }))}>
            Remove {i + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary outline" onClick={() => set((n) => ({ assignments: [...of(n), { variable: def.variables[0]?.name ?? '', value: '' }] }))}>
        Add an assignment
      </button>
    </fieldset>
  );
}
