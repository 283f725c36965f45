/** No WhatsApp sender of the bot names its WhatsApp Business Account, so there is nowhere to read templates from. */
export class NoBusinessAccountError extends Error {
  constructor(readonly botId: string) {
    super(`no WhatsApp sender of bot ${botId} has a WhatsApp Business Account id (set it with: sender set-waba)`);
    this.name = 'NoBusinessAccountError';
  }
}
