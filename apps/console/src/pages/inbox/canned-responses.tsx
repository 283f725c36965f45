import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { CannedResponseView } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../../api.js';
import { DataTable } from '../../data-table.js';
import { Field, InputField, SubmitButton } from '../../form-field.js';
import { href } from '../../router.js';
import { EmptyState, ErrorNotice, Success, useAction, useLoad } from '../../ui.js';
import { Inbox } from '../../icons.js';
import { quickReplyList } from './quick-replies.js';

/** `#/bots/<id>/inbox/canned-responses` (conversation ids are UUIDs, so the name cannot clash). */
export const CANNED_PATH = 'canned-responses';

/** The bot's canned responses: what agents insert into a reply. Viewers read them; developers add, change and delete. */
export function CannedResponsesPage({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ cannedResponses: CannedResponseView[] }>('GET', `/v1/bots/${bot.id}/inbox/canned-responses`), [bot.id]);
  const canAct = roleAtLeast(bot.role, 'developer');
  const [editing, setEditing] = useState<CannedResponseView | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  // A new key after each save: the add form starts empty again.
  const [saves, setSaves] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const remove = async (r: CannedResponseView) => {
    if (await action.run(() => api('DELETE', `/v1/bots/${bot.id}/inbox/canned-responses/${r.id}`))) {
      setDeleting(null);
      if (editing?.id === r.id) setEditing(null);
      // The list is read again before the confirmation shows, so what it says is what the table shows.
      await list.reload(true);
      setDone(`Deleted “${r.title}”.`);
    }
  };
  return (
    <section>
      <p>
        <a href={href('bots', bot.id, 'inbox')}>← Inbox</a>
      </p>
      <h1>Canned responses</h1>
      <p>Replies your team sends often. In a conversation, choose one under the message and press Insert (or Ctrl+/ from the message) to put it at the cursor.</p>
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? action.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading canned responses…"
        rows={list.data?.cannedResponses}
        caption="Canned responses"
        columns={canAct ? ['Title', 'Text', 'Quick replies', 'Actions'] : ['Title', 'Text', 'Quick replies']}
        testId="canned-list"
        empty={
          <EmptyState icon={Inbox} title="No canned responses yet" testId="canned-empty">
            {canAct ? 'Add the first one below: a title to find it by, the text, and up to 3 quick replies.' : 'Members with the developer role add them.'}
          </EmptyState>
        }
        row={(r: CannedResponseView) => (
          <tr>
            <th scope="row">{r.title}</th>
            <td class="break">{r.text}</td>
            <td>{r.quickReplies.join(', ') || '—'}</td>
            {canAct && (
              <td>
                {deleting === r.id ? (
                  <span class="row-actions">
                    <button type="button" class="contrast" disabled={action.busy} onClick={() => remove(r)}>
                      Confirm delete “{r.title}”
                    </button>
                    <button type="button" class="secondary outline" onClick={() => setDeleting(null)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  <span class="row-actions">
                    <button type="button" class="secondary outline" aria-label={`Edit “${r.title}”`} onClick={() => (setEditing(r), setDone(null))}>
                      Edit
                    </button>
                    <button type="button" class="secondary outline" aria-label={`Delete “${r.title}”`} onClick={() => (setDeleting(r.id), setDone(null))}>
                      Delete
                    </button>
                  </span>
                )}
              </td>
            )}
          </tr>
        )}
      />
      {canAct && (
        <CannedForm
          key={editing?.id ?? `new-${saves}`}
          bot={bot}
          editing={editing}
          onSaved={async (message) => {
            await list.reload(true);
            setEditing(null);
            setSaves((n) => n + 1);
            setDone(message);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
    </section>
  );
}

function CannedForm({ bot, editing, onSaved, onCancel }: { bot: Bot; editing: CannedResponseView | null; onSaved: (message: string) => Promise<void>; onCancel: () => void }) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [text, setText] = useState(editing?.text ?? '');
  const [quick, setQuick] = useState(editing?.quickReplies.join(', ') ?? '');
  const [errors, setErrors] = useState<{ title?: string; text?: string; quick?: string }>({});
  const action = useAction();
  const first = useRef<HTMLInputElement>(null);
  // Before the browser paints the form, so that keys pressed as it appears already reach its title.
  useLayoutEffect(() => {
    if (editing) first.current?.focus();
  }, [editing]);
  const submit = async (e: Event) => {
    e.preventDefault();
    const quickReplies = quickReplyList(quick);
    const found = {
      title: title.trim() ? undefined : 'Title is required',
      text: text.trim() ? undefined : 'Text is required',
      quick: quickReplies.length > 3 ? 'Quick replies: at most 3' : quickReplies.some((q) => q.length > 20) ? 'Quick replies: each at most 20 characters' : undefined,
    };
    setErrors(found);
    if (found.title || found.text || found.quick) return;
    const body = { title: title.trim(), text, quickReplies };
    const saved = await action.run(() =>
      editing ? api<{ message: string }>('PUT', `/v1/bots/${bot.id}/inbox/canned-responses/${editing.id}`, body) : api<{ message: string }>('POST', `/v1/bots/${bot.id}/inbox/canned-responses`, body),
    );
    if (saved) await onSaved(`${editing ? 'Saved' : 'Added'} “${body.title}”.`);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? `Edit “${editing.title}”` : 'Add a canned response'}>
      <h2>{editing ? `Edit “${editing.title}”` : 'Add a canned response'}</h2>
      <Field id="canned-title" label="Title" error={errors.title}>
        {(aria) => <input {...aria} ref={first} maxLength={100} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />}
      </Field>
      <Field id="canned-text" label="Text" error={errors.text}>
        {(aria) => <textarea {...aria} rows={3} maxLength={4096} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <InputField id="canned-quick" label="Quick replies (optional, comma-separated, up to 3)" error={errors.quick} value={quick} onValue={setQuick} />
      <ErrorNotice error={action.error} />
      <div class="row-actions">
        <SubmitButton action={action}>{editing ? 'Save' : 'Add canned response'}</SubmitButton>
        {editing && (
          <button type="button" class="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
