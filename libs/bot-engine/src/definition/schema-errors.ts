import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { DefinitionError } from '@platform/contracts';
import { botDefinitionJsonSchema } from './bot-definition.schema.js';

// Compiled once per process: compiling is the expensive part, validating a document is cheap. Strict, except that
// the message node's "exactly one of" branches name properties declared beside them rather than inside them.
const validate = new Ajv2020({ allErrors: true, discriminator: true, strict: true, strictRequired: false }).compile(botDefinitionJsonSchema);

/** The schema's complaints about `doc`, each named by journey slug and node id where it can be, or [] when none. */
export function schemaErrors(doc: unknown): DefinitionError[] {
  if (validate(doc)) return [];
  const errors = (validate.errors ?? []).filter(kept).map((error) => located(doc, error));
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify(error);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/**
 * The message node's "exactly one of" is a `oneOf` of `required`s: its branches' own complaints ("must have
 * required property 'image'") would only confuse, so the oneOf's single error speaks for them.
 */
function kept(error: ErrorObject): boolean {
  return !/\/messageNode\/oneOf\/\d+\//.test(error.schemaPath);
}

function located(doc: unknown, error: ErrorObject): DefinitionError {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  const result: DefinitionError = { message: '' };
  let rest = segments;
  if (segments[0] === 'journeys' && segments.length > 1) {
    const journey = at(doc, ['journeys', segments[1]]);
    const slug = field(journey, 'slug');
    if (slug !== undefined) {
      result.journey = slug;
      rest = segments.slice(2);
      if (rest[0] === 'nodes' && rest.length > 1) {
        const id = field(at(journey, ['nodes', rest[1]]), 'id');
        if (id !== undefined) {
          result.node = id;
          rest = rest.slice(2);
        }
      }
    }
  }
  const { path, message } = described(error, rest);
  if (path) result.field = path;
  result.message = message;
  return result;
}

/** The field the error is about (pointer segments as `a.b[2].c`) and what is wrong with it. */
function described(error: ErrorObject, segments: string[]): { path: string; message: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: pathOf([...segments, String(params.missingProperty)]), message: 'is required' };
    case 'additionalProperties':
      return { path: pathOf([...segments, String(params.additionalProperty)]), message: 'is not a known field' };
    case 'dependentRequired':
      return { path: pathOf([...segments, String(params.property)]), message: `goes with ${String(params.missingProperty)}` };
    case 'oneOf':
      return { path: pathOf(segments), message: 'needs exactly one of text, image or cards' };
    case 'discriminator':
      return { path: pathOf([...segments, String(params.tag)]), message: `must be one of the known ${String(params.tag)}s` };
    case 'const':
      return { path: pathOf(segments), message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { path: pathOf(segments), message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'maxLength':
      return { path: pathOf(segments), message: `must be at most ${String(params.limit)} characters` };
    case 'minLength':
      return { path: pathOf(segments), message: 'must not be empty' };
    case 'pattern':
      return { path: pathOf(segments), message: params.pattern === '\\S' ? 'must not be blank' : `must match ${String(params.pattern)}` };
    case 'maxItems':
      return { path: pathOf(segments), message: `must contain at most ${String(params.limit)} items` };
    case 'minItems':
      return { path: pathOf(segments), message: `must contain at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}` };
    case 'propertyNames':
      return { path: pathOf([...segments, String(params.propertyName)]), message: 'is not a valid name' };
    default:
      return { path: pathOf(segments), message: error.message ?? 'is invalid' };
  }
}

function pathOf(segments: string[]): string {
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function at(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function field(value: unknown, key: string): string | undefined {
  const found = at(value, [key]);
  return typeof found === 'string' && found !== '' ? found : undefined;
}
