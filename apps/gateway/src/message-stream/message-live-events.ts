import type { CarouselDispatchJob, MessageLiveEvent } from '@platform/contracts';

export interface BotEvent {
  botId: string;
  event: MessageLiveEvent;
}

const CHANGES = new Set(['sent', 'delivered', 'read', 'failed']);

/** An entry of the lifecycle stream (lifecycleStreamFields' layout) as a live event; null when it is not one. */
export function lifecycleEvent(fields: string[]): BotEvent | null {
  const f = fieldMap(fields);
  const { messageId, botId, status, at } = f;
  if (!messageId || !botId || !at || !status || !CHANGES.has(status)) return null;
  const event: MessageLiveEvent = { msgId: messageId, status: status as MessageLiveEvent['status'], at };
  if (status === 'failed') event.error = { code: f.errorCode || null, text: f.errorText || null };
  return { botId, event };
}

/** The queue's `added` event of a carousel job, read with the job's data: a `queued` event; null when the job is gone or unreadable. */
export function queuedEvent(streamId: string, jobData: string | null): BotEvent | null {
  if (!jobData) return null;
  let job: Partial<CarouselDispatchJob>;
  try {
    job = JSON.parse(jobData) as Partial<CarouselDispatchJob>;
  } catch {
    return null;
  }
  if (typeof job.messageId !== 'string' || typeof job.botId !== 'string' || typeof job.recipient !== 'string') return null;
  return { botId: job.botId, event: { msgId: job.messageId, status: 'queued', at: streamIdTime(streamId), recipient: job.recipient } };
}

/** A stream entry's id starts with Redis' clock in milliseconds when the entry was added. */
export function streamIdTime(id: string): string {
  const ms = Number(id.split('-')[0]);
  return new Date(Number.isFinite(ms) ? ms : Date.now()).toISOString();
}

export function fieldMap(fields: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
  return map;
}
