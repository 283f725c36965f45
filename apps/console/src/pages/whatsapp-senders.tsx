import { useEffect, useState } from 'preact/hooks';
import type { SenderView } from '@platform/contracts/views';
import { SENDER_THROUGHPUT } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { InputField, SubmitButton, useFields } from '../form-field.js';
import { EmptyState, ErrorNotice, Success, useAction, useLoad, when } from '../ui.js';
import { Smartphone } from '../icons.js';

const THROUGHPUT_ERROR = `Throughput must be a whole number of messages per second from ${SENDER_THROUGHPUT.min} to ${SENDER_THROUGHPUT.max}`;
const WABA_ERROR = 'WhatsApp Business Account id must be the numeric id Meta shows';

/** The problem with a throughput typed into a form, or null; empty means "not given". */
function throughputProblem(text: string): string | null {
  if (!text.trim()) return null;
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= SENDER_THROUGHPUT.min && n <= SENDER_THROUGHPUT.max ? null : THROUGHPUT_ERROR;
}

export function SendersPage({ bot }: { bot: Bot }) {
  const senders = useLoad(() => api<{ senders: SenderView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/senders`), [bot.id]);
  const [done, setDone] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const admin = roleAtLeast(bot.role, 'admin');
  const remove = useAction();
  const edited = senders.data?.senders.find((s) => s.id === editing);
  const changed = (message: string) => {
    setDone(message);
    setEditing(null);
    void senders.reload(true);
  };
  return (
    <>
      {done && <Success>{done}</Success>}
      <p class="muted">
        Throughput is how many messages per second the workers send through a number, all together: Meta's tier of the number ({SENDER_THROUGHPUT.default} by default, up to {SENDER_THROUGHPUT.max}).
        Meta's throttling answers are retried.
      </p>
      <ErrorNotice error={senders.error ?? remove.error} />
      <DataTable
        loading={senders.loading && !senders.data}
        spinner="Loading senders…"
        rows={senders.data?.senders ?? []}
        empty={
          senders.data && (
            <EmptyState icon={Smartphone} title="No sender number yet" testId="empty-senders">
              Add the WhatsApp number your messages leave from, below: its phone-number id and access token are in Meta's WhatsApp Manager.
            </EmptyState>
          )
        }
        busy={senders.loading}
        caption="Sender numbers"
        columns={['Number', 'Phone-number id', 'Business Account', 'Throughput', 'Access token', 'Sends', 'Added']}
        actions={admin}
        row={(s) => (
          <tr data-sender-id={s.id}>
            <th scope="row">{s.number}</th>
            <td>
              <code>{s.phoneNumberId}</code>
            </td>
            <td>{s.wabaId ? <code>{s.wabaId}</code> : '—'}</td>
            <td data-testid="throughput">{s.throughput} msg/s</td>
            <td>Set (never shown)</td>
            <td data-testid="sender-health">
              {s.recentFailures ? <span class="badge status-failed">{s.recentFailures} failed in 24 h</span> : <span class="badge ok">No failures in 24 h</span>}
              {s.lastError && (
                <div class="muted error-cell" title={s.lastError.text ?? undefined}>
                  Last error {when(s.lastError.at)}: {[s.lastError.code, s.lastError.text].filter(Boolean).join(' ')}
                </div>
              )}
            </td>
            <td>{when(s.createdAt)}</td>
            {admin && (
              <td>
                <button
                  type="button"
                  class="secondary outline small"
                  aria-label={`Edit sender ${s.number}`}
                  aria-expanded={editing === s.id}
                  onClick={() => {
                    setDone(null);
                    setEditing(editing === s.id ? null : s.id);
                  }}
                >
                  Edit
                </button>{' '}
                <ConfirmButton
                  action={remove}
                  label={`Delete sender ${s.number}`}
                  question={`Delete sender ${s.number}? It is no longer used for sends (queued messages through it fail); its messages stay in the log.`}
                  call={() => api('DELETE', `/v1/bots/${bot.id}/whatsapp/senders/${s.id}`)}
                  onDone={() => changed(`Sender ${s.number} deleted.`)}
                >
                  Delete
                </ConfirmButton>
              </td>
            )}
          </tr>
        )}
      />
      {admin && edited && <EditSender key={edited.id} bot={bot} sender={edited} onSaved={changed} onCancel={() => setEditing(null)} />}
      {admin && <AddSender bot={bot} onAdded={changed} />}
    </>
  );
}

/** Throughput, Business Account and access token of one sender; the token is write-only (blank keeps it). */
function EditSender({ bot, sender, onSaved, onCancel }: { bot: Bot; sender: SenderView; onSaved: (m: string) => void; onCancel: () => void }) {
  const { form, setErrors, field } = useFields({ throughput: String(sender.throughput), wabaId: sender.wabaId ?? '', accessToken: '' });
  const action = useAction();
  // Opened from the sender's Edit button: the keyboard goes on in the form.
  useEffect(() => document.getElementById('edit-throughput')?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Partial<typeof form> = {};
    if (!form.throughput.trim()) found.throughput = 'Throughput is required';
    else if (throughputProblem(form.throughput)) found.throughput = THROUGHPUT_ERROR;
    if (form.wabaId.trim() && !/^\d{1,32}$/.test(form.wabaId.trim())) found.wabaId = WABA_ERROR;
    if (!form.wabaId.trim() && sender.wabaId) found.wabaId = 'WhatsApp Business Account id cannot be removed, only changed';
    setErrors(found);
    if (Object.keys(found).length) return;
    const body: Record<string, unknown> = {};
    if (Number(form.throughput) !== sender.throughput) body.throughput = Number(form.throughput);
    if (form.wabaId.trim() && form.wabaId.trim() !== sender.wabaId) body.wabaId = form.wabaId.trim();
    if (form.accessToken.trim()) body.accessToken = form.accessToken.trim();
    if (Object.keys(body).length === 0) return onCancel();
    const s = await action.run(() => api<SenderView>('PATCH', `/v1/bots/${bot.id}/whatsapp/senders/${sender.id}`, body));
    if (s) onSaved(`Sender ${s.number} saved: ${s.throughput} messages/s${body.accessToken ? ', access token replaced' : ''}.`);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Edit sender ${sender.number}`} class="panel">
      <h2>Edit sender {sender.number}</h2>
      <div class="grid">
        <InputField
          {...field('throughput', 'edit-throughput')}
          label="Throughput (messages/s)"
          inputMode="numeric"
          hint={`${SENDER_THROUGHPUT.min}–${SENDER_THROUGHPUT.max}; Meta's tier of the number.`}
        />
        <InputField {...field('wabaId', 'edit-waba')} label="WhatsApp Business Account id" inputMode="numeric" hint="Where templates are synced from." />
      </div>
      <InputField
        {...field('accessToken', 'edit-token')}
        label="New access token"
        type="password"
        autocomplete="off"
        hint="Leave empty to keep the current one; it is stored encrypted and never shown."
      />
      <div class="button-row">
        <SubmitButton action={action}>Save sender</SubmitButton>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={action.error} />
    </form>
  );
}

function AddSender({ bot, onAdded }: { bot: Bot; onAdded: (message: string) => void }) {
  const empty = { number: '', phoneNumberId: '', accessToken: '', throughput: '', wabaId: '' };
  const { form, setForm, setErrors, field } = useFields(empty);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Partial<typeof form> = {};
    if (!/^\+?[1-9]\d{7,14}$/.test(form.number.trim())) found.number = 'Number must have a country code: 8-15 digits, optional +';
    if (!/^\d{1,32}$/.test(form.phoneNumberId.trim())) found.phoneNumberId = 'Phone-number id must be the numeric id Meta shows';
    if (!form.accessToken.trim()) found.accessToken = 'Access token is required';
    const tp = throughputProblem(form.throughput);
    if (tp) found.throughput = tp;
    if (form.wabaId.trim() && !/^\d{1,32}$/.test(form.wabaId.trim())) found.wabaId = WABA_ERROR;
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = {
      number: form.number.trim(),
      phoneNumberId: form.phoneNumberId.trim(),
      accessToken: form.accessToken.trim(),
      ...(form.throughput.trim() ? { throughput: Number(form.throughput.trim()) } : {}),
      ...(form.wabaId.trim() ? { wabaId: form.wabaId.trim() } : {}),
    };
    const s = await action.run(() => api<SenderView>('POST', `/v1/bots/${bot.id}/whatsapp/senders`, body));
    if (s) {
      setForm(empty);
      onAdded(`Sender ${s.number} added.`);
    }
  };
  return (
    <details>
      <summary role="button" class="secondary outline">
        Add a sender number
      </summary>
      <form onSubmit={submit} noValidate aria-label="Add a sender number">
        <div class="grid">
          <InputField {...field('number', 'sender-number')} label="Number" inputMode="tel" />
          <InputField {...field('phoneNumberId', 'sender-pnid')} label="Phone-number id" inputMode="numeric" />
        </div>
        <div class="grid">
          <InputField
            {...field('throughput', 'sender-throughput')}
            label="Throughput (messages/s)"
            inputMode="numeric"
            hint={`Optional; ${SENDER_THROUGHPUT.default} when empty.`}
            placeholder={String(SENDER_THROUGHPUT.default)}
          />
          <InputField {...field('wabaId', 'sender-waba')} label="WhatsApp Business Account id" inputMode="numeric" hint="Optional; needed to sync templates." />
        </div>
        <InputField {...field('accessToken', 'sender-token')} label="Access token" type="password" autocomplete="off" hint="Stored encrypted; it can be replaced but never read back." />
        <SubmitButton action={action}>Add sender</SubmitButton>
        <ErrorNotice error={action.error} />
      </form>
    </details>
  );
}
