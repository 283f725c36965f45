import { useState } from 'preact/hooks';
import type { SenderView, TemplateView } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { href } from '../router.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, NotAllowed, Spinner, Success, useAction, useLoad } from '../ui.js';

/** Sends a carousel to one number with the administrator's token (same body and checks as the trigger). */
export function TestCarouselPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'developer')) return <NotAllowed needed="developer" role={bot.role} />;
  return <TestCarouselLoader bot={bot} />;
}

function TestCarouselLoader({ bot }: { bot: Bot }) {
  const senders = useLoad(() => api<{ senders: SenderView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/senders`), [bot.id]);
  const templates = useLoad(() => api<{ templates: TemplateView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/templates`), [bot.id]);
  const approved = templates.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  if (senders.error || templates.error)
    return (
      <>
        <ErrorNotice error={senders.error} />
        <ErrorNotice error={templates.error} />
      </>
    );
  if (!senders.data || !templates.data) return <Spinner label="Loading senders and templates…" />;
  if (approved.length === 0 || senders.data.senders.length === 0) {
    return <p>A test carousel needs a sender number and an approved carousel template (see Senders and Templates).</p>;
  }
  return <TestCarousel bot={bot} templates={approved} senders={senders.data.senders} />;
}

function TestCarousel({ bot, templates, senders }: { bot: Bot; templates: TemplateView[]; senders: SenderView[] }) {
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
      <form onSubmit={submit} noValidate aria-label="Send a test carousel">
        <div class="grid">
          <Field id="tc-template" label="Template">
            {(a) => (
              <select {...a} value={templateId} onChange={(e) => setTemplateId((e.target as HTMLSelectElement).value)}>
                {templates.map((t) => (
                  <option value={t.id}>
                    {t.name} ({t.cardCount} cards)
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="tc-sender" label="Sender">
            {(a) => (
              <select {...a} value={sender} onChange={(e) => setSender((e.target as HTMLSelectElement).value)}>
                {senders.map((s) => (
                  <option value={s.number}>{s.number}</option>
                ))}
              </select>
            )}
          </Field>
          <InputField id="tc-number" label="Recipient" error={errors.number} inputMode="tel" placeholder="+919876543210" value={number} onValue={setNumber} />
        </div>
        {Array.from({ length: template.cardCount }, (_, i) => (
          <InputField
            id={`tc-card-${i}`}
            label={`Card ${i + 1} ${template.cardHeaderFormat} link`}
            error={errors[`card${i}`]}
            type="url"
            placeholder="https://…"
            value={link(i)}
            onValue={(value) => {
              const next = [...links];
              next[i] = value;
              setLinks(next);
            }}
          />
        ))}
        <SubmitButton action={action}>Send test carousel</SubmitButton>
      </form>
      <ErrorNotice error={action.error} />
      {sent && (
        <Success>
          Queued. <a href={href('bots', bot.id, 'messages', sent)}>Follow message {sent.slice(0, 8)}…</a>
        </Success>
      )}
    </>
  );
}
