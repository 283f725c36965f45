import type { BotButton, BotReply, MessageNode, QuestionNode, QuickReply } from '@platform/contracts';
import { LIMITS } from '../definition/definition-limits.js';
import { renderChatText, renderUrl, truncate, type TemplateScope } from '../templates/render-template.js';
import { choicesAreListed } from './answer-checks.js';

/** A message node's reply: exactly one of text (with quick replies), image or cards, as the reply API takes them. */
export function messageReply(node: MessageNode, scope: TemplateScope): BotReply {
  if (node.image) {
    const caption = node.image.caption !== undefined ? renderChatText(node.image.caption, scope, LIMITS.caption) : '';
    return { image: { url: renderUrl(node.image.url, scope), ...(caption ? { caption } : {}) } };
  }
  if (node.cards) {
    return {
      cards: node.cards.map((card) => {
        const subtitle = card.subtitle !== undefined ? renderChatText(card.subtitle, scope, LIMITS.cardSubtitle) : '';
        return {
          title: visible(renderChatText(card.title, scope, LIMITS.cardTitle)),
          ...(subtitle ? { subtitle } : {}),
          ...(card.imageUrl !== undefined ? { imageUrl: renderUrl(card.imageUrl, scope) } : {}),
          buttons: card.buttons.map((button) => quickReply(button, scope)),
        };
      }),
    };
  }
  return textReply(node.text ?? '', node.quickReplies, scope);
}

/**
 * A question's prompt. A choice question shows its choices as quick replies when they fit (3); with more, the
 * text lists them numbered and the user may answer with the number (chosen over refusing > 3 choices: WhatsApp
 * and the chat page both show at most 3 reply buttons, and a list of sizes or branches is common).
 */
export function questionPrompt(node: QuestionNode, scope: TemplateScope): BotReply {
  if (node.answer.type !== 'choice') return textReply(node.text, node.quickReplies, scope);
  const choices = node.answer.choices;
  if (!choicesAreListed(choices)) {
    const text = renderChatText(node.text, scope, LIMITS.text);
    return { text: visible(text), quickReplies: choices.map((choice) => ({ title: choice.title, payload: choice.payload ?? choice.title })) };
  }
  const list = choices.map((choice, index) => `${index + 1}. ${choice.title}`).join('\n');
  const text = renderChatText(node.text, scope, LIMITS.text);
  return { text: truncate(`${visible(text)}\n\n${list}`, LIMITS.text) };
}

/** Text with optional quick replies. */
export function textReply(template: string, buttons: BotButton[] | undefined, scope: TemplateScope): BotReply {
  const text = visible(renderChatText(template, scope, LIMITS.text));
  return buttons?.length ? { text, quickReplies: buttons.map((button) => quickReply(button, scope)) } : { text };
}

/** A button: its payload is its title when it has none (as the reply API does). */
function quickReply(button: BotButton, scope: TemplateScope): QuickReply {
  const title = visible(renderChatText(button.title, scope, LIMITS.quickReplyTitle));
  const payload = button.payload !== undefined ? renderChatText(button.payload, scope, LIMITS.quickReplyPayload) : '';
  return { title, payload: payload.trim() ? payload : title };
}

/** The reply API refuses blank text: a template whose values all came out empty shows an ellipsis instead. */
function visible(rendered: string): string {
  return rendered.trim() ? rendered : '…';
}
