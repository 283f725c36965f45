import { useEffect, useRef, useState } from 'preact/hooks';
import type { CannedResponseView } from '@platform/contracts/views';
import { ApiError, Bot, api } from '../../api.js';
import { Field, InputField, SubmitButton } from '../../form-field.js';
import { href } from '../../router.js';
import { ErrorNotice, useAction, useLoad } from '../../ui.js';
import { MAX_QUICK_REPLIES, quickReplyList } from './quick-replies.js';
import { CANNED_PATH } from './canned-responses.js';

/** `focus`: the message field takes focus (an agent who just took over writes next); `onFocused` clears the request. */
export function ReplyForm(props: { bot: Bot; id: string; windowOpen: boolean; onSent: () => void; focus?: boolean; onFocused?: () => void }) {
  const { bot, id, windowOpen, onSent } = props;
  const [text, setText] = useState('');
  const [quick, setQuick] = useState('');
  const [image, setImage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [quickError, setQuickError] = useState<string | null>(null);
  /** The field a refusal names, focused once its message is on the page (so it is read out as the field's description), and a count so a second refusal focuses it again. */
  const [refused, setRefused] = useState<{ field: string; n: number } | null>(null);
  const refuse = (field: string) => setRefused((r) => ({ field, n: (r?.n ?? 0) + 1 }));
  const action = useAction();
  const canned = useLoad(() => api<{ cannedResponses: CannedResponseView[] }>('GET', `/v1/bots/${bot.id}/inbox/canned-responses`), [bot.id]);
  const responses = canned.data?.cannedResponses ?? [];
  const [picked, setPicked] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLSelectElement>(null);
  /** The reply last sent without an answer (offline, connection lost), and its Idempotency-Key. */
  const unanswered = useRef<{ body: string; key: string } | null>(null);
  const current = responses.find((x) => x.id === picked) ?? responses[0];
  useEffect(() => {
    if (refused) document.getElementById(refused.field)?.focus();
  }, [refused]);
  useEffect(() => {
    if (!props.focus) return;
    box.current?.focus();
    props.onFocused?.();
  }, [props.focus]);
  /** The chosen response goes where the cursor was in the message (replacing a selection), its quick replies with it; focus returns to the message. */
  const insert = () => {
    const r = current;
    if (!r) return;
    const el = box.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + r.text + text.slice(end);
    setText(next);
    if (r.quickReplies.length && !quick.trim()) setQuick(r.quickReplies.join(', '));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + r.text.length, start + r.text.length);
    });
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const quickReplies = quickReplyList(quick);
    if (!text.trim() && !image.trim()) {
      setError('Write a message or give an image link');
      return refuse('reply-text');
    }
    setError(null);
    // The API's limit too (it refuses more), said here before anything is sent.
    if (!image.trim() && quickReplies.length > MAX_QUICK_REPLIES) {
      setQuickError(
        `At most ${MAX_QUICK_REPLIES} quick replies: you gave ${quickReplies.length}. Remove ${quickReplies.length - MAX_QUICK_REPLIES === 1 ? 'one' : 'some'}, or send the rest in another reply.`,
      );
      // Focus would stay on Send, and the message would go unheard: the field it names takes focus, the message as its description.
      return refuse('reply-quick');
    }
    setQuickError(null);
    const body = image.trim()
      ? { image: { url: image.trim(), ...(text.trim() ? { caption: text.trim() } : {}) } }
      : { text, ...(quickReplies.length ? { quickReplies: quickReplies.map((title) => ({ title })) } : {}) };
    // The same reply sent again after no answer keeps its key, so a first try that did arrive is not sent twice.
    const json = JSON.stringify(body);
    if (unanswered.current?.body !== json) unanswered.current = { body: json, key: replyKey() };
    const { key } = unanswered.current;
    const sent = await action.run(async () => {
      try {
        return await api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/messages`, body, { 'idempotency-key': key });
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 0)) unanswered.current = null; // the server answered: nothing to repeat
        throw err;
      }
    });
    if (sent) {
      unanswered.current = null;
      setText('');
      setQuick('');
      setImage('');
      onSent();
      // The button was disabled while sending, which took focus from it: the next reply is written in the message.
      box.current?.focus();
    }
  };
  return (
    <form aria-label="Reply" onSubmit={submit}>
      <h2>Reply</h2>
      {!windowOpen && <p class="notice warning">The user last wrote more than 24 hours ago: WhatsApp takes no free-form reply until they write again (send a template instead).</p>}
      <Field id="reply-text" label="Message" error={error} hint={responses.length ? 'Ctrl+/ (or ⌘/) moves to the canned responses; Insert puts the chosen one at the cursor.' : undefined}>
        {(aria) => (
          <textarea
            {...aria}
            ref={box}
            rows={3}
            value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              if (e.key === '/' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                picker.current?.focus();
              }
            }}
          />
        )}
      </Field>
      {responses.length > 0 ? (
        <div class="canned-insert" role="group" aria-label="Canned responses">
          <label for="canned-pick">Canned response</label>
          <select id="canned-pick" ref={picker} value={current?.id} onChange={(e) => setPicked((e.target as HTMLSelectElement).value)}>
            {responses.map((r) => (
              <option value={r.id}>{r.title}</option>
            ))}
          </select>
          <button type="button" class="secondary" onClick={insert}>
            Insert
          </button>
        </div>
      ) : (
        <p class="muted">
          No canned responses yet: <a href={href('bots', bot.id, 'inbox', CANNED_PATH)}>add the replies your team sends often</a>.
        </p>
      )}
      <InputField id="reply-quick" label={`Quick replies (optional, comma-separated, up to ${MAX_QUICK_REPLIES})`} error={quickError} value={quick} onValue={setQuick} />
      <InputField id="reply-image" label="Image link (optional: sends an image, the message as its caption)" type="url" value={image} onValue={setImage} />
      <ErrorNotice error={action.error} />
      <SubmitButton action={action}>Send reply</SubmitButton>
    </form>
  );
}

export function HandBack({ bot, id, journeys, act, busy }: { bot: Bot; id: string; journeys: string[]; act: (call: () => Promise<{ message: string }>) => void; busy: boolean }) {
  const [to, setTo] = useState('');
  return (
    <form
      aria-label="Hand back"
      onSubmit={(e) => {
        e.preventDefault();
        act(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/handback`, to ? { journeySlug: to } : {}));
      }}
    >
      <h2>Hand back</h2>
      <label>
        Hand back to
        <select value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
          <option value="">The bot (it goes on after its handoff)</option>
          {journeys.map((j) => (
            <option value={j}>Journey {j}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="secondary" disabled={busy}>
        Hand back
      </button>
    </form>
  );
}

export function NoteForm({ bot, id, onAdded }: { bot: Bot; id: string; onAdded: () => void }) {
  const [text, setText] = useState('');
  const action = useAction();
  return (
    <form
      aria-label="Add a note"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await action.run(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/notes`, { text }))) {
          setText('');
          onAdded();
        }
      }}
    >
      <Field id="note-text" label="Internal note (the user never sees it)" error={action.error?.status === 400 ? action.error.message : null}>
        {(aria) => <textarea {...aria} rows={2} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <SubmitButton action={action}>Add note</SubmitButton>
    </form>
  );
}

export function Assign({ bot, id, current, act }: { bot: Bot; id: string; current: string; act: (call: () => Promise<{ message: string }>) => void }) {
  const members = useLoad(() => api<{ members: Array<{ userId: string; email: string }> }>('GET', `/v1/bots/${bot.id}/members`), [bot.id]);
  return (
    <label>
      Assigned to
      <select
        value={current}
        onChange={(e) => {
          const userId = (e.target as HTMLSelectElement).value || null;
          act(() => api('PUT', `/v1/bots/${bot.id}/inbox/conversations/${id}/assignee`, { userId }));
        }}
      >
        <option value="">Nobody</option>
        {(members.data?.members ?? []).map((m) => (
          <option value={m.userId}>{m.email}</option>
        ))}
      </select>
    </label>
  );
}

/** A fresh Idempotency-Key for a reply: 128 random bits (crypto.randomUUID needs a secure context; a console on plain http has none). */
function replyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
