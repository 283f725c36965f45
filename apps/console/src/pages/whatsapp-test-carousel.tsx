import { useState } from 'preact/hooks';
import type { ButtonValueKind, SenderView, TemplateView } from '@platform/contracts/views';
import { buttonValueKind } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { href } from '../router.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
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

/** A card button that takes a value at send time, with its position among the card's buttons. */
interface ValueSlot {
  index: number;
  kind: ButtonValueKind;
  text: string;
  url?: string;
}

/** What the form asks for a template: the message body's placeholders, and per card its body placeholders and button values. */
function shapeOf(template: TemplateView) {
  return {
    body: template.bodyParameterCount,
    cards: Array.from({ length: template.cardCount }, (_, i) => {
      const spec = template.cards?.[i];
      const slots: ValueSlot[] = (spec?.buttons ?? []).flatMap((b, index) => {
        const kind = buttonValueKind(b);
        return kind ? [{ index, kind, text: b.text, url: b.url }] : [];
      });
      return { body: spec?.bodyParameterCount ?? 0, slots };
    }),
  };
}

const mediaWord = (format: string) => (format === 'video' ? 'video' : format === 'document' ? 'document' : 'image');

/**
 * The form is built from the synced template (its placeholders and buttons, as Meta approved them): a
 * field for every value the template needs, named by card and button. The server checks the same counts
 * and kinds (the trigger's checks) and its 400 names the card and field. A hand-registered template has no
 * known placeholders: it asks for the media links only.
 */
function TestCarousel({ bot, templates, senders }: { bot: Bot; templates: TemplateView[]; senders: SenderView[] }) {
  const [templateId, setTemplateId] = useState(templates[0]!.id);
  const [sender, setSender] = useState(senders[0]!.number);
  const [number, setNumber] = useState('');
  const template = templates.find((t) => t.id === templateId) ?? templates[0]!;
  const shape = shapeOf(template);
  // Values by field key; kept when switching templates back and forth (keys name the template).
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const action = useAction();
  const key = (...parts: (string | number)[]) => [template.id, ...parts].join(':');
  const value = (k: string) => values[k] ?? '';
  const bind = (k: string) => ({
    value: value(k),
    error: errors[k],
    onValue: (v: string) => {
      setValues((prev) => ({ ...prev, [k]: v }));
      // A field's error goes once it is edited; the next send checks again.
      if (errors[k]) setErrors(({ [k]: _gone, ...rest }) => rest);
    },
  });

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^\+?[1-9]\d{7,14}$/.test(number.trim())) found.number = 'Recipient must be a mobile number with country code';
    for (let p = 0; p < shape.body; p++) if (!value(key('body', p)).trim()) found[key('body', p)] = `Message body {{${p + 1}}} is required`;
    shape.cards.forEach((card, i) => {
      if (!/^https?:\/\/\S+$/.test(value(key(i, 'media')).trim())) found[key(i, 'media')] = `Card ${i + 1} media link must be an http(s) URL`;
      for (let p = 0; p < card.body; p++) if (!value(key(i, 'body', p)).trim()) found[key(i, 'body', p)] = `Card ${i + 1} body {{${p + 1}}} is required`;
      for (const slot of card.slots) {
        if (!value(key(i, 'button', slot.index)).trim()) found[key(i, 'button', slot.index)] = `Card ${i + 1} “${slot.text}” ${slot.kind === 'url' ? 'URL suffix' : 'payload'} is required`;
      }
    });
    setErrors(found);
    if (Object.keys(found).length) return;
    setSent(null);
    const trimmed = (k: string) => value(k).trim();
    const cards = shape.cards.map((card, i) => ({
      media: { mediaLink: trimmed(key(i, 'media')) },
      ...(card.body ? { bodyParameters: Array.from({ length: card.body }, (_, p) => trimmed(key(i, 'body', p))) } : {}),
      ...(card.slots.length ? { buttons: card.slots.map((s) => (s.kind === 'url' ? { urlSuffix: trimmed(key(i, 'button', s.index)) } : { payload: trimmed(key(i, 'button', s.index)) })) } : {}),
    }));
    const params = { ...(shape.body ? { bodyParameters: Array.from({ length: shape.body }, (_, p) => trimmed(key('body', p))) } : {}), cards };
    const body = { userDetails: { number: number.trim() }, notification: { templateId, type: 'whatsapp', sender, params } };
    const a = await action.run(() => api<{ msgId: string }>('POST', `/v1/bots/${bot.id}/whatsapp/test-carousel`, body));
    if (a) setSent(a.msgId);
  };
  const media = mediaWord(template.cardHeaderFormat);
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
        {template.source === 'manual' && (
          <p class="muted" data-testid="manual-template">
            This template was registered by hand, so its placeholders and buttons are not known: only the media links are asked for. Sync templates from Meta to fill in the rest.
          </p>
        )}
        {Array.from({ length: shape.body }, (_, p) => (
          <InputField id={`tc-body-${p}`} label={`Message body {{${p + 1}}}`} hint="Text for the message above the cards." {...bind(key('body', p))} />
        ))}
        {shape.cards.map((card, i) => (
          <fieldset class="card-values" data-testid="card-values">
            <legend>Card {i + 1}</legend>
            <InputField id={`tc-card-${i}`} label={`Card ${i + 1} ${media} link`} type="url" placeholder="https://…" {...bind(key(i, 'media'))} />
            {Array.from({ length: card.body }, (_, p) => (
              <InputField id={`tc-card-${i}-body-${p}`} label={`Card ${i + 1} body {{${p + 1}}}`} {...bind(key(i, 'body', p))} />
            ))}
            {card.slots.map((slot) =>
              slot.kind === 'url' ? (
                <InputField
                  id={`tc-card-${i}-button-${slot.index}`}
                  label={`Card ${i + 1} “${slot.text}” URL suffix`}
                  hint={`Replaces {{1}} in ${slot.url ?? 'the button’s URL'}.`}
                  {...bind(key(i, 'button', slot.index))}
                />
              ) : (
                <InputField
                  id={`tc-card-${i}-button-${slot.index}`}
                  label={`Card ${i + 1} “${slot.text}” payload`}
                  hint="Sent back to your webhook when the user taps the quick reply."
                  {...bind(key(i, 'button', slot.index))}
                />
              ),
            )}
          </fieldset>
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
