import { useState } from 'preact/hooks';
import { Bot, api, roleAtLeast } from '../api.js';
import { href } from '../router.js';
import { ErrorNotice, Field, Pager, Spinner, Success, useAction, useLoad, usePage, when } from '../ui.js';

interface Sender {
  id: string;
  number: string;
  phoneNumberId: string;
  accessTokenSet: boolean;
  createdAt: string;
}
interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  cardCount: number;
  cardHeaderFormat: string;
}

export function WhatsAppPage({ bot }: { bot: Bot }) {
  const senders = useLoad(() => api<{ senders: Sender[] }>('GET', `/v1/bots/${bot.id}/whatsapp/senders`), [bot.id]);
  const templates = useLoad(() => api<{ templates: Template[] }>('GET', `/v1/bots/${bot.id}/whatsapp/templates`), [bot.id]);
  const [done, setDone] = useState<string | null>(null);
  const paged = usePage(templates.data?.templates ?? [], 10);
  const admin = roleAtLeast(bot.role, 'admin');
  return (
    <section>
      <h1>WhatsApp</h1>
      {done && <Success>{done}</Success>}
      <h2>Senders</h2>
      <ErrorNotice error={senders.error} />
      {senders.loading && !senders.data ? (
        <Spinner label="Loading senders…" />
      ) : senders.data?.senders.length === 0 ? (
        <p>No sender number yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="striped">
            <caption class="visually-hidden">Sender numbers</caption>
            <thead><tr><th scope="col">Number</th><th scope="col">Phone-number id</th><th scope="col">Access token</th><th scope="col">Added</th></tr></thead>
            <tbody>
              {senders.data?.senders.map((s) => (
                <tr>
                  <th scope="row">{s.number}</th>
                  <td><code>{s.phoneNumberId}</code></td>
                  <td>Set (never shown) {admin && <ReplaceToken bot={bot} sender={s} onDone={setDone} />}</td>
                  <td>{when(s.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {admin && <AddSender bot={bot} onAdded={(m) => { setDone(m); void senders.reload(true); }} />}
      <p class="muted">Throughput: Meta sets each number's tier (80 messages/s by default); the worker retries Meta's throttling answers.</p>

      <h2>Carousel templates</h2>
      <ErrorNotice error={templates.error} />
      {templates.loading && !templates.data ? (
        <Spinner label="Loading templates…" />
      ) : paged.rows.length === 0 ? (
        <p>No templates yet (the operator adds them: <code>npm run cli -- template create</code>).</p>
      ) : (
        <>
          <div class="table-wrap">
            <table class="striped">
              <caption class="visually-hidden">Carousel templates</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Language</th><th scope="col">Category</th><th scope="col">Cards</th><th scope="col">Card header</th><th scope="col">Id</th></tr></thead>
              <tbody>
                {paged.rows.map((t) => (
                  <tr><th scope="row">{t.name}</th><td>{t.language}</td><td>{t.category}</td><td>{t.cardCount}</td><td>{t.cardHeaderFormat}</td><td><code>{t.id}</code></td></tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager {...paged} label="Templates" />
        </>
      )}
      {roleAtLeast(bot.role, 'developer') && templates.data && senders.data && templates.data.templates.length > 0 && senders.data.senders.length > 0 && (
        <TestCarousel bot={bot} templates={templates.data.templates} senders={senders.data.senders} />
      )}
    </section>
  );
}

function AddSender({ bot, onAdded }: { bot: Bot; onAdded: (message: string) => void }) {
  const [form, setForm] = useState({ number: '', phoneNumberId: '', accessToken: '' });
  const [errors, setErrors] = useState<Partial<typeof form>>({});
  const action = useAction();
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Partial<typeof form> = {};
    if (!/^\+?[1-9]\d{7,14}$/.test(form.number.trim())) found.number = 'Number must have a country code: 8-15 digits, optional +';
    if (!/^\d{1,32}$/.test(form.phoneNumberId.trim())) found.phoneNumberId = 'Phone-number id must be the numeric id Meta shows';
    if (!form.accessToken.trim()) found.accessToken = 'Access token is required';
    setErrors(found);
    if (Object.keys(found).length) return;
    const s = await action.run(() => api<Sender>('POST', `/v1/bots/${bot.id}/whatsapp/senders`, { number: form.number.trim(), phoneNumberId: form.phoneNumberId.trim(), accessToken: form.accessToken.trim() }));
    if (s) {
      setForm({ number: '', phoneNumberId: '', accessToken: '' });
      onAdded(`Sender ${s.number} added.`);
    }
  };
  return (
    <details>
      <summary role="button" class="secondary outline">Add a sender number</summary>
      <form onSubmit={submit} noValidate aria-label="Add a sender number">
        <div class="grid">
          <Field id="sender-number" label="Number" error={errors.number}>{(a) => <input {...a} inputMode="tel" value={form.number} onInput={set('number')} />}</Field>
          <Field id="sender-pnid" label="Phone-number id" error={errors.phoneNumberId}>{(a) => <input {...a} inputMode="numeric" value={form.phoneNumberId} onInput={set('phoneNumberId')} />}</Field>
        </div>
        <Field id="sender-token" label="Access token" error={errors.accessToken} hint="Stored encrypted; it can be replaced but never read back.">
          {(a) => <input {...a} type="password" autocomplete="off" value={form.accessToken} onInput={set('accessToken')} />}
        </Field>
        <button type="submit" aria-busy={action.busy} disabled={action.busy}>Add sender</button>
        <ErrorNotice error={action.error} />
      </form>
    </details>
  );
}

function ReplaceToken({ bot, sender, onDone }: { bot: Bot; sender: Sender; onDone: (m: string) => void }) {
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  if (!open) return <button type="button" class="secondary outline small" aria-label={`Replace the access token of ${sender.number}`} onClick={() => setOpen(true)}>Replace</button>;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!token.trim()) return setError('Access token is required');
    setError(null);
    const s = await action.run(() => api<Sender>('PATCH', `/v1/bots/${bot.id}/whatsapp/senders/${sender.id}`, { accessToken: token.trim() }));
    if (s) { setOpen(false); setToken(''); onDone(`Access token of ${s.number} replaced.`); }
  };
  return (
    <form onSubmit={submit} noValidate class="compact">
      <Field id={`token-${sender.id}`} label={`New access token for ${sender.number}`} error={error}>
        {(a) => <input {...a} type="password" autocomplete="off" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} />}
      </Field>
      <button type="submit" class="small" aria-busy={action.busy} disabled={action.busy}>Save</button>{' '}
      <button type="button" class="secondary small" onClick={() => setOpen(false)}>Cancel</button>
      <ErrorNotice error={action.error} />
    </form>
  );
}

function TestCarousel({ bot, templates, senders }: { bot: Bot; templates: Template[]; senders: Sender[] }) {
  const [templateId, setTemplateId] = useState(templates[0]!.id);
  const [sender, setSender] = useState(senders[0]!.number);
  const [number, setNumber] = useState('');
  const template = templates.find((t) => t.id === templateId) ?? templates[0]!;
  const [links, setLinks] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const action = useAction();
  const link = (i: number) => links[i] ?? '';
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^\+?[1-9]\d{7,14}$/.test(number.trim())) found.number = 'Recipient must be a mobile number with country code';
    for (let i = 0; i < template.cardCount; i++) if (!/^https?:\/\/\S+$/.test(link(i).trim())) found[`card${i}`] = `Card ${i + 1} media link must be an http(s) URL`;
    setErrors(found);
    if (Object.keys(found).length) return;
    setSent(null);
    const body = {
      userDetails: { number: number.trim() },
      notification: { templateId, type: 'whatsapp', sender, params: { cards: Array.from({ length: template.cardCount }, (_, i) => ({ media: { mediaLink: link(i).trim() } })) } },
    };
    const a = await action.run(() => api<{ msgId: string }>('POST', `/v1/bots/${bot.id}/whatsapp/test-carousel`, body));
    if (a) setSent(a.msgId);
  };
  return (
    <>
      <h2>Send a test carousel</h2>
      <form onSubmit={submit} noValidate aria-label="Send a test carousel">
        <div class="grid">
          <Field id="tc-template" label="Template">{(a) => <select {...a} value={templateId} onChange={(e) => setTemplateId((e.target as HTMLSelectElement).value)}>{templates.map((t) => <option value={t.id}>{t.name} ({t.cardCount} cards)</option>)}</select>}</Field>
          <Field id="tc-sender" label="Sender">{(a) => <select {...a} value={sender} onChange={(e) => setSender((e.target as HTMLSelectElement).value)}>{senders.map((s) => <option value={s.number}>{s.number}</option>)}</select>}</Field>
          <Field id="tc-number" label="Recipient" error={errors.number}>{(a) => <input {...a} inputMode="tel" placeholder="+919876543210" value={number} onInput={(e) => setNumber((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        {Array.from({ length: template.cardCount }, (_, i) => (
          <Field id={`tc-card-${i}`} label={`Card ${i + 1} ${template.cardHeaderFormat} link`} error={errors[`card${i}`]}>
            {(a) => <input {...a} type="url" placeholder="https://…" value={link(i)} onInput={(e) => { const next = [...links]; next[i] = (e.target as HTMLInputElement).value; setLinks(next); }} />}
          </Field>
        ))}
        <button type="submit" aria-busy={action.busy} disabled={action.busy}>Send test carousel</button>
      </form>
      <ErrorNotice error={action.error} />
      {sent && <Success>Queued. <a href={href('bots', bot.id, 'messages', sent)}>Follow message {sent.slice(0, 8)}…</a></Success>}
    </>
  );
}
