import { IntEnv } from '../env-decorators.js';

/** How long the gateway keeps conversation transcripts (web chat and WhatsApp). */
export class ConversationEnv {
  /** Days a conversation message is kept; older ones are deleted hourly. */
  @IntEnv({ min: 1, max: 3650 })
  CONVERSATION_RETENTION_DAYS: number = 90;
}
