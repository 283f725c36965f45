/** An event from the bot, as handed to `onEventFromBot` listeners: the inner code and the decoded data. */
export interface BotEvent {
  /** Event name, e.g. `logout`. */
  code: string;
  /** The decoded JSON object, e.g. `{ actionType: 'button' }`. */
  data: Record<string, unknown>;
}

/**
 * The event map used when the app declares none: any name, data of unknown members. An app's own map
 * names its events and the shape of their `data`, e.g. `{ 'order.updated': { orderId: string } }`;
 * the SDK does not check data against it at run time.
 */
export type AnyBotEvents = Record<string, Record<string, unknown>>;

/** Second argument of `onEventFromBot` listeners. */
export interface BotEventMeta {
  /** Stream id of the event (unique in the session). */
  id: string;
  /** The outer `send<Platform>Event` code. */
  platformCode: string;
}
