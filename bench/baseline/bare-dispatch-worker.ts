// Baseline of `npm run bench:dispatch`: a bare BullMQ worker that, for each job, only POSTs the Cloud API
// JSON the channel worker would send (same renderer, same recipient, same template, same bearer) to the
// WhatsApp endpoint and reads the answer. No Postgres, no decryption, no status bookkeeping. Default
// Worker and ioredis settings apart from the concurrency. Forked from dist by bench/dispatch.ts, which
// passes everything through the environment and waits for {type:'ready'} on IPC.
import 'reflect-metadata';
import { Worker } from 'bullmq';
import { CarouselDispatchJob } from '@platform/contracts';
import { renderCarouselMessage } from '@platform/whatsapp';

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const baseUrl = need('WHATSAPP_API_BASE_URL').replace(/\/$/, '');
const phoneNumberId = need('BARE_PHONE_NUMBER_ID');
const accessToken = need('BARE_ACCESS_TOKEN');
const recipient = need('BARE_RECIPIENT');
const template = {
  providerName: need('BARE_TEMPLATE_NAME'),
  language: need('BARE_TEMPLATE_LANGUAGE'),
  cardHeaderFormat: need('BARE_CARD_HEADER_FORMAT') as 'image' | 'video',
};
const url = `${baseUrl}/${encodeURIComponent(phoneNumberId)}/messages`;

const worker = new Worker<CarouselDispatchJob>(
  need('BARE_QUEUE'),
  async (job) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(renderCarouselMessage(template, recipient, job.data.cards)),
      signal: AbortSignal.timeout(10_000),
    });
    const payload = (await res.json()) as { messages?: Array<{ id?: string }> };
    if (!res.ok) throw new Error(`WhatsApp answered HTTP ${res.status}`);
    return payload.messages?.[0]?.id;
  },
  { connection: { url: need('REDIS_URL') }, concurrency: Number(need('BARE_CONCURRENCY')) },
);
worker.on('error', (err) => process.stderr.write(`bare worker: ${err.message}\n`));
await worker.waitUntilReady();
process.send?.({ type: 'ready' });

const stop = () => void worker.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('disconnect', stop); // the parent went away
