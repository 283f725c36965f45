import { createRequire } from 'node:module';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import * as contracts from '@platform/contracts';

// class-transformer's @Type metadata tells the generator which class a nested property holds; the
// package exports its store only from its CommonJS build, which is the one the DTOs' decorators use.
const { defaultMetadataStorage } = createRequire(import.meta.url)('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

type Schemas = NonNullable<OpenAPIObject['components']>['schemas'] & object;

/**
 * The DTOs carry class-validator rules, not @ApiProperty decorators, so the Swagger scanner leaves
 * their schemas empty. This fills each referenced DTO's schema from those same rules (one source of
 * truth for what a 400 refuses and what the document says), with the DTOs nested in them.
 */
export function withValidatorSchemas(document: OpenAPIObject): OpenAPIObject {
  const options = { refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage: defaultMetadataStorage };
  const generated = validationMetadatasToSchemas(options) as Schemas;
  const schemas: Schemas = ((document.components ??= {}).schemas ??= {});
  const pending = [...Object.keys(schemas), ...refsIn(document.paths)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = generated[name] ?? derivedSchema(name, options);
    if (!schema || !isEmpty(schemas[name])) continue;
    schemas[name] = schema;
    pending.push(...refsIn(schema));
  }
  return document;
}

/**
 * A contract DTO derived with Nest's mapped types (PartialType, OmitType, ...) and no rule of its own
 * is not in the generated set, whose schemas are named after the classes that carry rules (here the
 * mapped base): its schema comes from the class itself, rules inherited.
 */
function derivedSchema(name: string, options: Parameters<typeof targetConstructorToSchema>[1]): Schemas[string] | undefined {
  const dto = Object.values(contracts).find((value) => typeof value === 'function' && value.name === name);
  if (!dto) return undefined;
  const schema = targetConstructorToSchema(dto as new () => unknown, options) as Schemas[string];
  return isEmpty(schema) ? undefined : schema;
}

function isEmpty(schema: unknown): boolean {
  if (schema === undefined) return true;
  const { properties, ...rest } = schema as { properties?: object };
  return (properties === undefined || Object.keys(properties).length === 0) && Object.keys(rest).every((k) => k === 'type');
}

function refsIn(value: unknown): string[] {
  const names: string[] = [];
  JSON.stringify(value, (key, v) => {
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) names.push(v.slice('#/components/schemas/'.length));
    return v;
  });
  return names;
}
