import type { BotDefinition, BotNode, BotVariableType, DefinitionError } from '@platform/contracts';
import { ExpressionError } from '../expressions/expression-error.js';
import { referencedVariables, staticType } from '../expressions/expression-analysis.js';
import { jsonTypeOf } from '../expressions/json-values.js';
import { parseExpression } from '../expressions/parse-expression.js';
import { templateParts } from '../templates/template-parts.js';
import { LIMITS } from './definition-limits.js';
import { unsafePatternReason } from './regex-safety.js';

type Report = (field: string, message: string) => void;

/**
 * The checks on what nodes say: variables that exist and have the right type, templates that are paths,
 * secrets only in http nodes, URLs that stay http(s), expressions that parse, patterns that compile.
 */
export function contentErrors(definition: BotDefinition): DefinitionError[] {
  const errors: DefinitionError[] = [];
  const declared = new Map<string, BotVariableType>();
  definition.variables.forEach((variable, index) => {
    if (!declared.has(variable.name)) declared.set(variable.name, variable.type);
    if (variable.default !== undefined && jsonTypeOf(variable.default) !== variable.type) {
      errors.push({ field: `variables[${index}].default`, message: `the default is ${describeType(jsonTypeOf(variable.default))}, but "${variable.name}" is declared ${variable.type}` });
    }
  });
  for (const journey of definition.journeys) {
    for (const node of journey.nodes) {
      const report: Report = (field, message) => errors.push({ journey: journey.slug, node: node.id, ...(field ? { field } : {}), message });
      checkNode(node, declared, report);
    }
  }
  return errors;
}

function checkNode(node: BotNode, declared: Map<string, BotVariableType>, report: Report): void {
  const text = (field: string, value: string | undefined) => value !== undefined && checkTemplate(field, value, declared, report, false);
  const url = (field: string, value: string | undefined, secrets: boolean) => value !== undefined && checkUrl(field, value, declared, report, secrets);
  const variable = (field: string, name: string): BotVariableType | undefined => {
    const type = declared.get(name);
    if (!type) report(field, `the variable "${name}" is not declared`);
    return type;
  };
  const buttons = (field: string, list: Array<{ title: string; payload?: string }> | undefined) =>
    list?.forEach((button, index) => {
      text(`${field}[${index}].title`, button.title);
      text(`${field}[${index}].payload`, button.payload);
    });

  switch (node.kind) {
    case 'message':
      text('text', node.text);
      buttons('quickReplies', node.quickReplies);
      url('image.url', node.image?.url, false);
      text('image.caption', node.image?.caption);
      node.cards?.forEach((card, index) => {
        text(`cards[${index}].title`, card.title);
        text(`cards[${index}].subtitle`, card.subtitle);
        url(`cards[${index}].imageUrl`, card.imageUrl, false);
        buttons(`cards[${index}].buttons`, card.buttons);
      });
      return;
    case 'question': {
      text('text', node.text);
      text('retryPrompt', node.retryPrompt);
      buttons('quickReplies', node.quickReplies);
      const type = variable('variable', node.variable);
      const wanted: BotVariableType = node.answer.type === 'number' ? 'number' : 'string';
      if (type && type !== wanted) report('variable', `${article(node.answer.type)} ${node.answer.type} answer is stored as a ${wanted}, but "${node.variable}" is declared ${type}`);
      checkAnswer(node, report);
      return;
    }
    case 'condition':
      node.branches.forEach((branch, index) => checkExpression(`branches[${index}].when`, branch.when, declared, report));
      return;
    case 'function':
      if (node.variable !== undefined) variable('variable', node.variable);
      return;
    case 'http': {
      url('url', node.url, true);
      for (const [name, value] of Object.entries(node.headers ?? {})) checkTemplate(`headers.${name}`, value, declared, report, true);
      if (node.body !== undefined) {
        if (node.method === 'GET') report('body', 'a GET request has no body');
        if (JSON.stringify(node.body).length > LIMITS.code) report('body', `the body is longer than ${LIMITS.code} characters as JSON`);
        forEachStringLeaf(node.body, 'body', (field, value) => checkTemplate(field, value, declared, report, true));
      }
      node.map?.forEach((entry, index) => {
        const type = variable(`map[${index}].variable`, entry.variable);
        if (type && entry.path === 'status' && type !== 'number') report(`map[${index}].variable`, `the status is a number, but "${entry.variable}" is declared ${type}`);
      });
      return;
    }
    case 'set':
      node.assignments.forEach((assignment, index) => {
        const type = variable(`assignments[${index}].variable`, assignment.variable);
        const expr = checkExpression(`assignments[${index}].value`, assignment.value, declared, report);
        const valueType = expr && staticType(expr, declared);
        if (type && valueType && valueType !== type) report(`assignments[${index}].value`, `the value is ${describeType(valueType)}, but "${assignment.variable}" is declared ${type}`);
      });
      return;
    case 'handoff':
      text('text', node.text);
      text('reason', node.reason);
      return;
    case 'end':
      text('text', node.text);
      return;
    case 'goto':
      return;
  }
}

function checkAnswer(node: Extract<BotNode, { kind: 'question' }>, report: Report): void {
  const answer = node.answer;
  if (answer.type === 'pattern') {
    const reason = unsafePatternReason(answer.pattern, answer.flags);
    if (reason) report(answer.flags && reason.startsWith('is not a valid') ? 'answer.flags' : 'answer.pattern', `the pattern ${reason}`);
  }
  if (answer.type === 'text' && answer.minLength !== undefined && answer.maxLength !== undefined && answer.minLength > answer.maxLength) {
    report('answer.minLength', 'minLength is larger than maxLength');
  }
  if (answer.type === 'number' && answer.min !== undefined && answer.max !== undefined && answer.min > answer.max) report('answer.min', 'min is larger than max');
  if (answer.type === 'choice') {
    // Choices are shown as the quick replies (or listed in the text when there are more than 3).
    if (node.quickReplies) report('quickReplies', 'a choice question shows its choices as quick replies: remove quickReplies');
    const seen = new Set<string>();
    answer.choices.forEach((choice, index) => {
      for (const word of new Set([choice.title.toLowerCase(), (choice.payload ?? choice.title).toLowerCase()])) {
        if (seen.has(word)) report(`answer.choices[${index}]`, `"${word}" already names another choice: answers would be ambiguous`);
        seen.add(word);
      }
    });
  }
}

function checkTemplate(field: string, template: string, declared: Map<string, BotVariableType>, report: Report, secretsAllowed: boolean): void {
  for (const part of templateParts(template)) {
    if ('invalid' in part) report(field, part.reason);
    else if ('path' in part) {
      if (part.path.root === 'variables' && !declared.has(part.path.segments[0])) report(field, `${part.source} reads the variable "${part.path.segments[0]}", which is not declared`);
      if (part.path.root === 'secrets' && !secretsAllowed) report(field, `${part.source}: secrets can only be used in http nodes (url, headers, body)`);
    }
  }
}

/** A URL template: its placeholders are percent-encoded when rendered, so the scheme and host must be written out. */
function checkUrl(field: string, template: string, declared: Map<string, BotVariableType>, report: Report, secretsAllowed: boolean): void {
  checkTemplate(field, template, declared, report, secretsAllowed);
  const sample = templateParts(template)
    .map((part) => ('text' in part ? part.text : 'x'))
    .join('');
  let ok: boolean;
  try {
    const parsed = new URL(sample);
    ok = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && /^https?:\/\/[^/{]/i.test(template);
  } catch {
    ok = false;
  }
  if (!ok) report(field, 'must be an http(s) URL with its scheme and host written out (placeholders are percent-encoded)');
}

function checkExpression(field: string, source: string, declared: Map<string, BotVariableType>, report: Report) {
  try {
    const expr = parseExpression(source);
    for (const name of new Set(referencedVariables(expr))) if (!declared.has(name)) report(field, `the expression reads the variable "${name}", which is not declared`);
    return expr;
  } catch (error) {
    if (error instanceof ExpressionError) report(field, `the expression ${error.message}`);
    else throw error;
    return undefined;
  }
}

function forEachStringLeaf(value: unknown, field: string, visit: (field: string, value: string) => void): void {
  if (typeof value === 'string') visit(field, value);
  else if (Array.isArray(value)) value.forEach((item, index) => forEachStringLeaf(item, `${field}[${index}]`, visit));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) forEachStringLeaf(item, `${field}.${key}`, visit);
}

function describeType(type: string): string {
  return type === 'null' ? 'null' : `${article(type)} ${type}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
