import { createRequire } from 'node:module';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

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
  const generated = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage: defaultMetadataStorage }) as Schemas;
  const schemas: Schemas = (document.components ??= {}).schemas ??= {};
  const pending = [...Object.keys(schemas), ...refsIn(document.paths)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = generated[name];
    if (!schema || !isEmpty(schemas[name])) continue;
    schemas[name] = schema;
    pending.push(...refsIn(schema));
  }
  return document;
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
