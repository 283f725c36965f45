// What one carousel trigger leaves in the queue, for the benchmarks that queue messages without the gateway.
// Keep in step with apps/gateway/src/carousel/carousel-trigger.service.ts: the CarouselDispatchJob (the
// worker creates the `messages` row from the job); its options are the queue's declared ones (libs/queue).
// A field added to CarouselDispatchJob makes this fail to compile until it is filled in here.
import { randomUUID } from 'node:crypto';
import { JobsOptions, Queue } from 'bullmq';
import { WhatsAppRetryEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { QueueDeclarations } from '@platform/queue';

const JOBS_PER_ADD_BULK = 1_000;

export interface TriggerSource {
  botId: string;
  templateId: string;
  senderId: string;
  channel: 'whatsapp';
  /** Digits only, as the service stores it (leading + removed). */
  recipient: string;
  cards: Array<{ media: { mediaLink: string }; bodyParameters?: string[] }>;
}

export interface QueuedTrigger {
  name: string;
  data: CarouselDispatchJob;
  opts: JobsOptions;
}

export function queuedTrigger(src: TriggerSource, config: WhatsAppRetryEnv): QueuedTrigger {
  const id = randomUUID();
  const data: CarouselDispatchJob = {
    messageId: id,
    botId: src.botId,
    templateId: src.templateId,
    senderId: src.senderId,
    channel: src.channel,
    recipient: src.recipient,
    cards: src.cards.map((c) => ({ mediaLink: c.media.mediaLink, ...(c.bodyParameters ? { bodyParameters: c.bodyParameters } : {}) })),
  };
  return {
    name: 'send',
    data,
    opts: { ...QueueDeclarations[QueueNames.carouselDispatch].jobOptions(config), jobId: id },
  };
}

/** Queues the jobs, in chunks. */
export async function enqueue(queue: Queue, triggers: QueuedTrigger[]): Promise<void> {
  for (let j = 0; j < triggers.length; j += JOBS_PER_ADD_BULK) await queue.addBulk(triggers.slice(j, j + JOBS_PER_ADD_BULK));
}
