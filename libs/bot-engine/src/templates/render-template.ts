import { ownMember, toText } from '../expressions/json-values.js';
import { TemplateError } from './template-error.js';
import { templateParts, type TemplatePath } from './template-parts.js';

/** What templates read. `secrets` is only given to http nodes; elsewhere a secret placeholder renders ''. */
export interface TemplateScope {
  variables: Record<string, unknown>;
  payload: string | null;
  secrets?: Record<string, string>;
}

/**
 * Renders a template in one pass: each placeholder's value is escaped for where it lands and inserted as text,
 * never parsed again, so a value containing `{{...}}` stays literal. Missing paths render ''; objects and arrays
 * render as JSON; numbers and booleans as strings. A placeholder that is not a path stays as written (the
 * validator refuses those).
 */
export function renderTemplate(template: string, scope: TemplateScope, escape: (value: string) => string): string {
  return templateParts(template)
    .map((part) => ('text' in part ? part.text : 'path' in part ? escape(toText(lookup(part.path, scope))) : part.source))
    .join('');
}

function lookup(path: TemplatePath, scope: TemplateScope): unknown {
  if (path.root === 'payload') return scope.payload;
  let value: unknown = path.root === 'variables' ? scope.variables : (scope.secrets ?? {});
  for (const segment of path.segments) value = ownMember(value, segment);
  return value;
}

// Control characters other than tab and newline (and DEL, and the C1 range) would garble a chat bubble.
// eslint-disable-next-line no-control-regex
const CHAT_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const HEADER_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/** Chat text (messages, prompts, titles, captions): inserted values lose control characters but tab and newline. */
export function renderChatText(template: string, scope: TemplateScope, max: number): string {
  return truncate(
    renderTemplate(template, scope, (value) => value.replace(CHAT_UNSAFE, '')),
    max,
  );
}

/** A URL: each inserted value is percent-encoded (it can add to a path or a query, never change the host); the result must be http(s). */
export function renderUrl(template: string, scope: TemplateScope): string {
  const rendered = renderTemplate(template, scope, encodeURIComponent);
  let url: URL;
  try {
    url = new URL(rendered);
  } catch {
    throw new TemplateError('the URL is not a valid URL once rendered');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TemplateError('the URL is not an http(s) URL once rendered');
  return rendered;
}

/** An http header value: inserted values lose CR, LF and other control characters (no header injection). */
export function renderHeader(template: string, scope: TemplateScope): string {
  return renderTemplate(template, scope, (value) => value.replace(HEADER_UNSAFE, ''));
}

/** An http JSON body: string leaves are rendered raw, then the whole is JSON-encoded, so a value cannot break out of its string. */
export function renderJsonBody(body: unknown, scope: TemplateScope): string {
  return JSON.stringify(renderLeaves(body, scope));
}

function renderLeaves(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return renderTemplate(value, scope, (inserted) => inserted);
  if (Array.isArray(value)) return value.map((item) => renderLeaves(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderLeaves(item, scope)]));
  }
  return value;
}

/** Cuts to `max` characters without splitting a surrogate pair: the reply API refuses longer text. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
