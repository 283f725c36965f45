/** An event from the bot, as handed to `onEventFromBot` listeners: the inner code and the decoded data. */
export interface BotEvent {
  /** Event name, e.g. `logout`. */
  code: string;
  /** The decoded JSON object, e.g. `{ actionType: 'button' }`. */
  data: Record<string, unknown>;
}

/** Second argument of `onEventFromBot` listeners. */
export interface BotEventMeta {
  /** Stream id of the event (unique in the session). */
  id: string;
  /** The outer `send<Platform>Event` code. */
  platformCode: string;
}
