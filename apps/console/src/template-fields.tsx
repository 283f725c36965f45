// The values a synced carousel template takes, as form fields: one shape for the Test carousel form (a
// value typed per field) and the campaign page (an audience column, or a value for everyone, per field),
// so both ask for the same things under the same names, in the template's order.
import type { ComponentChildren } from 'preact';
import type { ButtonValueKind, SenderView, TemplateView } from '@platform/contracts/views';
import { buttonValueKind } from '@platform/contracts/views';
import { Field } from './form-field.js';
import { count } from './count.js';

/** One value the template needs: where it goes (message body, or a card's media link, body or button) and its name on the page. */
export interface TemplateValueSlot {
  /** Stable within the template: `body:0`, `1:media`, `1:body:0`, `1:button:2` (the button's position among the card's buttons). */
  key: string;
  /** The card (0-based), or null for the message body above the cards. */
  card: number | null;
  what: 'body' | 'media' | ButtonValueKind;
  /** As the page names it: `Message body {{1}}`, `Card 2 image link`, `Card 1 “Shop now” URL suffix`. */
  label: string;
  hint?: string;
}

/** The template's values in its order: the message body's placeholders, then per card its media link, body placeholders and button values. */
export function templateSlots(template: TemplateView): TemplateValueSlot[] {
  const media = template.cardHeaderFormat === 'video' ? 'video' : template.cardHeaderFormat === 'document' ? 'document' : 'image';
  const slots: TemplateValueSlot[] = Array.from({ length: template.bodyParameterCount }, (_, p) => ({
    key: `body:${p}`,
    card: null,
    what: 'body',
    label: `Message body {{${p + 1}}}`,
    hint: 'Text for the message above the cards.',
  }));
  for (let i = 0; i < template.cardCount; i++) {
    // A hand-registered template has no known placeholders or buttons: its cards take a media link only.
    const spec = template.cards?.[i];
    slots.push({ key: `${i}:media`, card: i, what: 'media', label: `Card ${i + 1} ${media} link` });
    for (let p = 0; p < (spec?.bodyParameterCount ?? 0); p++) slots.push({ key: `${i}:body:${p}`, card: i, what: 'body', label: `Card ${i + 1} body {{${p + 1}}}` });
    (spec?.buttons ?? []).forEach((b, index) => {
      const kind = buttonValueKind(b);
      if (kind === 'url') slots.push({ key: `${i}:button:${index}`, card: i, what: kind, label: `Card ${i + 1} “${b.text}” URL suffix`, hint: `Replaces {{1}} in ${b.url ?? 'the button’s URL'}.` });
      else if (kind)
        slots.push({ key: `${i}:button:${index}`, card: i, what: kind, label: `Card ${i + 1} “${b.text}” payload`, hint: 'Sent back to your webhook when the user taps the quick reply.' });
    });
  }
  return slots;
}

/** The values filled in, shaped as the trigger's `params` and the campaign's `mapping` both are (with `mediaLink` where the trigger has `media.mediaLink`). */
export function templateParams<T>(template: TemplateView, value: (slot: TemplateValueSlot) => T) {
  const slots = templateSlots(template);
  const list = (of: TemplateValueSlot[]) => of.map(value);
  const body = slots.filter((s) => s.card === null);
  return {
    ...(body.length ? { bodyParameters: list(body) } : {}),
    cards: Array.from({ length: template.cardCount }, (_, i) => {
      const mine = slots.filter((s) => s.card === i);
      const cardBody = mine.filter((s) => s.what === 'body');
      const buttons = mine.filter((s) => s.what === 'url' || s.what === 'quick_reply');
      return {
        mediaLink: value(mine.find((s) => s.what === 'media')!),
        ...(cardBody.length ? { bodyParameters: list(cardBody) } : {}),
        ...(buttons.length ? { buttons: buttons.map((s) => (s.what === 'url' ? { urlSuffix: value(s) } : { payload: value(s) })) } : {}),
      };
    }),
  };
}

/**
 * The fields of a template's values: the message body's first, then a fieldset per card. `field` draws
 * one (a text input on the Test carousel form, a column picker on the campaign page).
 */
export function TemplateValueFields({ template, field }: { template: TemplateView; field: (slot: TemplateValueSlot) => ComponentChildren }) {
  const slots = templateSlots(template);
  return (
    <>
      {template.source === 'manual' && (
        <p class="muted" data-testid="manual-template">
          This template was registered by hand, so its placeholders and buttons are not known: only the media links are asked for. Sync templates from Meta to fill in the rest.
        </p>
      )}
      {slots.filter((s) => s.card === null).map(field)}
      {Array.from({ length: template.cardCount }, (_, i) => (
        <fieldset class="card-values" data-testid="card-values">
          <legend>Card {i + 1}</legend>
          {slots.filter((s) => s.card === i).map(field)}
        </fieldset>
      ))}
    </>
  );
}

/** A slot's key as a form control id: `${prefix}-1-button-2`. */
export const slotId = (prefix: string, slot: TemplateValueSlot) => `${prefix}-${slot.key.replace(/:/g, '-')}`;

/** The approved templates to pick from, each with its card count. */
export function TemplateSelect({ id, templates, value, onValue }: { id: string; templates: TemplateView[]; value: string; onValue: (id: string) => void }) {
  return (
    <Field id={id} label="Template">
      {(a) => (
        <select {...a} value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
          {templates.map((t) => (
            <option value={t.id}>
              {t.name} ({count(t.cardCount, 'card')})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The bot's WhatsApp numbers to send from. */
export function SenderSelect({ id, senders, value, onValue }: { id: string; senders: SenderView[]; value: string; onValue: (number: string) => void }) {
  return (
    <Field id={id} label="Sender">
      {(a) => (
        <select {...a} value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
          {senders.map((s) => (
            <option value={s.number}>{s.number}</option>
          ))}
        </select>
      )}
    </Field>
  );
}
