import { OptionalString, RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/bots/:botId/sessions/:sessionId/messages: what the user typed, or the quick reply tapped. */
export class UserChatMessageDto {
  @RequiredString({ max: 4096, refuse: 'blank' })
  text: string;

  /** The tapped quick reply's payload. */
  @OptionalString({ max: 256 })
  payload?: string;

  /**
   * The page's id for this message, the same on every attempt to send it: a second message with the
   * same id from the same user is not recorded again (the answer to the first was lost, or the page was
   * reloaded while it was being sent).
   */
  @OptionalString({ max: 64, pattern: { regex: /^[A-Za-z0-9_-]{8,64}$/, message: '$property must be 8 to 64 of A-Z a-z 0-9 _ -' } })
  clientMessageId?: string;
}
