import { useState } from 'preact/hooks';
import type { SenderView, TemplateView } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { href } from '../router.js';
import { InputField, SubmitButton } from '../form-field.js';
import { SenderSelect, TemplateSelect, TemplateValueFields, type TemplateValueSlot, slotId, templateParams, templateSlots } from '../template-fields.js';
import { EmptyState, ErrorNotice, NotAllowed, Spinner, Success, useAction, useLoad } from '../ui.js';
import { FileText, Smartphone } from '../icons.js';

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
  if (senders.data.senders.length === 0)
    return (
      <EmptyState icon={Smartphone} title="Add a sender number first" next={<a href={href('bots', bot.id, 'whatsapp', 'senders')}>Add a sender number</a>}>
        A test carousel leaves from one of the bot's WhatsApp numbers, and this bot has none yet.
      </EmptyState>
    );
  if (approved.length === 0)
    return (
      <EmptyState icon={FileText} title="No approved carousel template yet" next={<a href={href('bots', bot.id, 'whatsapp', 'templates')}>Sync templates from Meta</a>}>
        Only templates Meta has approved can be sent. Sync them from your WhatsApp Business Account; a template in review shows here once approved.
      </EmptyState>
    );
  return <TestCarousel bot={bot} templates={approved} senders={senders.data.senders} />;
}

/**
 * The form is built from the synced template (its placeholders and buttons, as Meta approved them): a
 * field for every value the template needs, named by card and button (template-fields.tsx, shared with
 * the campaign page). The server checks the same counts and kinds (the trigger's checks) and its 400
 * names the card and field. A hand-registered template has no known placeholders: it asks for the media
 * links only.
 */
function TestCarousel({ bot, templates, senders }: { bot: Bot; templates: TemplateView[]; senders: SenderView[] }) {
  const [templateId, setTemplateId] = useState(templates[0]!.id);
  const [sender, setSender] = useState(senders[0]!.number);
  const [number, setNumber] = useState('');
  const template = templates.find((t) => t.id === templateId) ?? templates[0]!;
  // Values by field key; kept when switching templates back and forth (keys name the template).
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const action = useAction();
  const key = (slot: TemplateValueSlot) => `${template.id}:${slot.key}`;
  const value = (slot: TemplateValueSlot) => (values[key(slot)] ?? '').trim();

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^\+?[1-9]\d{7,14}$/.test(number.trim())) found.number = 'Recipient must be a mobile number with country code';
    for (const slot of templateSlots(template)) {
      if (slot.what === 'media' && !/^https?:\/\/\S+$/.test(value(slot))) found[key(slot)] = `Card ${slot.card! + 1} media link must be an http(s) URL`;
      else if (!value(slot)) found[key(slot)] = `${slot.label} is required`;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    setSent(null);
    const { cards, ...rest } = templateParams(template, value);
    const params = { ...rest, cards: cards.map(({ mediaLink, ...card }) => ({ media: { mediaLink }, ...card })) };
    const body = { userDetails: { number: number.trim() }, notification: { templateId, type: 'whatsapp', sender, params } };
    const a = await action.run(() => api<{ msgId: string }>('POST', `/v1/bots/${bot.id}/whatsapp/test-carousel`, body));
    if (a) setSent(a.msgId);
  };
  const field = (slot: TemplateValueSlot) => {
    const k = key(slot);
    const props = {
      id: slotId('tc', slot),
      label: slot.label,
      hint: slot.hint,
      error: errors[k],
      value: values[k] ?? '',
      onValue: (v: string) => {
        setValues((prev) => ({ ...prev, [k]: v }));
        // A field's error goes once it is edited; the next send checks again.
        if (errors[k]) setErrors(({ [k]: _gone, ...others }) => others);
      },
    };
    return slot.what === 'media' ? <InputField {...props} type="url" placeholder="https://…" /> : <InputField {...props} />;
  };
  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Send a test carousel">
        <div class="grid">
          <TemplateSelect id="tc-template" templates={templates} value={templateId} onValue={setTemplateId} />
          <SenderSelect id="tc-sender" senders={senders} value={sender} onValue={setSender} />
          <InputField id="tc-number" label="Recipient" error={errors.number} inputMode="tel" placeholder="+919876543210" value={number} onValue={setNumber} />
        </div>
        <TemplateValueFields template={template} field={field} />
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
