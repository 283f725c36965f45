import { OptionalString, RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/bots/:botId/sessions/:sessionId/messages: what the user typed, or the quick reply tapped. */
export class UserChatMessageDto {
  @RequiredString({ max: 4096, refuse: 'blank' })
  text: string;

  /** The tapped quick reply's payload. */
  @OptionalString({ max: 256 })
  payload?: string;
}
