import { IntEnv } from '../env-decorators.js';

/** How long the gateway keeps conversation transcripts (web chat and WhatsApp). */
export class ConversationEnv {
  /** Days a conversation message is kept; a conversation left without messages and unused as long goes too. */
  @IntEnv({ min: 1, max: 3650 })
  CONVERSATION_RETENTION_DAYS: number = 90;

  /** How often each gateway replica deletes what is past the retention (the first run comes within a minute of start). */
  @IntEnv({ min: 1, max: 86_400 })
  CONVERSATION_SWEEP_INTERVAL_SECONDS: number = 3600;
}
