import type { DefinitionError } from './bot-definition.js';

/** One definition error as people read it, in the API's messages and the CLI: `journey/node field: message`. */
export function definitionErrorText(e: DefinitionError): string {
  const where = [e.journey, e.node].filter((part) => part !== undefined && part !== '').join('/');
  const head = [where, e.field].filter(Boolean).join(' ');
  return head ? `${head}: ${e.message}` : e.message;
}
