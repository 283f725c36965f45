// A form for each node kind, plus its connections: the keyboard's way to build what the canvas builds by dragging.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
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
  onChange: (node: BotNode) => void;
  onConnect: (label: string, to: string | null) => void;
  onDelete: () => void;
  onStart: () => void;
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

export function NodeForm({ def, journey, node, errors, warnings, onChange, onConnect, onDelete, onStart }: Props) {
  const id = (f: string) => `node-${f}`;
  const set = (patch: Record<string, unknown>) => {
    const next: BotNode = { ...node, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined || v === '') delete next[k];
    onChange(next);
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
      <NodeIdField journey={journey} node={node} rename={(to) => set({ id: to })} />
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
            <select id={id(`connect-${label}`)} value={targetOf(journey, node.id, label) ?? ''} onChange={(e) => onConnect(label, value(e) || null)}>
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
          <button type="button" class="secondary outline" onClick={onStart}>
            Make it the start
          </button>
        )}
        <button type="button" class="secondary" onClick={onDelete}>
          Delete node
        </button>
      </div>
    </form>
  );
}

/**
 * The node's id, renamed when the field is left (or on Enter), not on each key: the form is keyed by the id,
 * so a rename per key (preact/compat makes onChange an input event) remounted it and lost the focus after one
 * character. An id another node of the journey has is refused (a rename onto it would merge the two nodes).
 */
function NodeIdField({ journey, node, rename }: { journey: Journey; node: BotNode; rename: (to: string) => void }) {
  const [typed, setTyped] = useState(node.id);
  useEffect(() => setTyped(node.id), [node.id]);
  const next = typed.trim();
  const taken = next !== node.id && journey.nodes.some((n) => n.id === next);
  /** Renames, then gives the focus back to where it was going (`then`, a field of the form remounted under the new id). */
  const commit = (then?: string) => {
    if (!next || next === node.id || taken) return;
    rename(next);
    if (then) requestAnimationFrame(() => document.getElementById(then)?.focus());
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
        onBlur={(e) => commit((e.relatedTarget as HTMLElement | null)?.id || undefined)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          commit('node-id');
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

type Setter = (patch: Record<string, unknown>) => void;

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
            set({ answer: type === 'choice' ? { type, choices: answer.choices ?? [{ title: 'Yes' }, { title: 'No' }] } : { type } });
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
  const branches = (node.branches as Array<{ id: string; when: string }> | undefined) ?? [];
  const put = (i: number, patch: Partial<{ id: string; when: string }>) => set({ branches: branches.map((b, j) => (j === i ? { ...b, ...patch } : b)) });
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
          <button type="button" class="secondary outline" onClick={() => set({ branches: branches.filter((_, j) => j !== i) })}>
            Remove branch {i + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary outline" onClick={() => set({ branches: [...branches, { id: `branch-${branches.length + 1}`, when: 'true' }] })}>
        Add a branch
      </button>
    </fieldset>
  );
}

function Assignments({ def, node, set }: { def: Definition; node: BotNode; set: Setter }) {
  const list = (node.assignments as Array<{ variable: string; value: string }> | undefined) ?? [];
  const put = (i: number, patch: Partial<{ variable: string; value: string }>) => set({ assignments: list.map((a, j) => (j === i ? { ...a, ...patch } : a)) });
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
          <button type="button" class="secondary outline" onClick={() => set({ assignments: list.filter((_, j) => j !== i) })}>
            Remove {i + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary outline" onClick={() => set({ assignments: [...list, { variable: def.variables[0]?.name ?? '', value: '' }] })}>
        Add an assignment
      </button>
    </fieldset>
  );
}
