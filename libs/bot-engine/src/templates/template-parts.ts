import { FORBIDDEN_MEMBERS } from '../expressions/expression-ast.js';

/** Where a placeholder reads from: `variables.<name>...`, `payload`, or (http nodes only) `secrets.<NAME>`. */
export interface TemplatePath {
  root: 'variables' | 'payload' | 'secrets';
  /** Member names and array indexes after the root (`variables.profile.tags[0]` → ['profile', 'tags', '0']). */
  segments: string[];
}

export type TemplatePart = { text: string } | { path: TemplatePath; source: string } | { invalid: string; source: string; reason: string };

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const PATH = /^(variables|payload|secrets)((?:\.[A-Za-z0-9_$-]{1,128}|\[\d{1,9}\])*)$/;
const SEGMENT = /\.([A-Za-z0-9_$-]{1,128})|\[(\d{1,9})\]/g;

/** Splits a template into literal text and placeholders (`{{ variables.profile.name }}`: whitespace allowed inside). */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ text: template.slice(last, match.index) });
    parts.push(placeholder(match[1].trim(), match[0]));
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

function placeholder(inner: string, source: string): TemplatePart {
  const match = PATH.exec(inner);
  if (!match) return { invalid: inner, source, reason: `{{${inner}}} is not a path: use {{variables.<name>...}}, {{payload}} or, in http nodes, {{secrets.<NAME>}}` };
  const root = match[1] as TemplatePath['root'];
  const segments = [...match[2].matchAll(SEGMENT)].map((segment) => segment[1] ?? segment[2]);
  const forbidden = segments.find((segment) => FORBIDDEN_MEMBERS.has(segment));
  if (forbidden) return { invalid: inner, source, reason: `{{${inner}}} uses the member name "${forbidden}", which is not allowed` };
  if (root === 'payload' && segments.length > 0) {
    return { invalid: inner, source, reason: `{{${inner}}}: the payload is a JSON string; parse it in a function node and read the variable` };
  }
  if (root === 'variables' && segments.length === 0) return { invalid: inner, source, reason: '{{variables}} names no variable: use {{variables.<name>}}' };
  if (root === 'secrets' && segments.length !== 1) return { invalid: inner, source, reason: `{{${inner}}} must name one secret: {{secrets.<NAME>}}` };
  return { path: { root, segments }, source };
}
