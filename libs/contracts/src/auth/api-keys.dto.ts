import { RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/bots/:botId/api-keys. */
export class CreateApiKeyDto {
  @RequiredString({ max: 100, refuse: 'empty' })
  name: string;
}

export type { ApiKeyView, CreatedApiKeyResponse } from './api-keys.views.js';
