/** The queue the bot runtime's replicas compete for. */
export const BotQueueNames = {
  botTurn: 'bot-turn',
} as const;

/**
 * Wakes the runtime for a conversation: it takes every input of the conversation not yet processed
 * (`bot_inputs`, in order), so a job is only a signal and its id is the input's id.
 */
export interface BotTurnJob {
  botId: string;
  conversationId: string;
}
