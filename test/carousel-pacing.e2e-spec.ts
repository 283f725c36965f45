import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository } from '@platform/database';
import { freePort } from '@platform/local-infra';
import { testQueue, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

const RATE = 20;
const PACED = 200;
const OTHER = 20;
const CARDS = [0, 1, 2].map((i) => ({ mediaLink: `https://cdn.example.com/card-${i}.jpg` }));

/**
 * Three channel-worker processes share each sender number's throughput: the Cloud API sees at most
 * that many of its messages in any wall-clock second, and another number's messages are not held back.
 */
describe('carousel dispatch: per-sender pacing across worker processes', () => {
  const stack = useStack({ cloud: true, seed: true }, 120_000);
  const workers: ChildProcess[] = [];
  const otherPhoneNumberId = '1065999000111';
  let queue: Queue<CarouselDispatchJob>;
  let pacedSenderId: string;
  let otherSenderId: string;
  stack.defer(() => queue?.close());
  stack.defer(() => workers.forEach((w) => w.kill('SIGKILL')));

  beforeAll(async () => {
    const { env, gateway, seed } = stack;
    queue = testQueue(QueueNames.carouselDispatch, env);
    const senders = gateway.get(ChannelSenderRepository);
    const [paced] = await senders.listByBot(seed.botId);
    pacedSenderId = paced.id;
    await senders.setThroughput(seed.botId, paced.id, RATE);
    ({ id: otherSenderId } = await senders.create({
      botId: seed.botId,
      channel: 'whatsapp',
      number: '15550002222',
      phoneNumberId: otherPhoneNumberId,
      accessTokenEncrypted: gateway.get(SecretBox).encrypt('EAAG-other-token'),
    }));
    const healthUrls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      healthUrls.push(`http://127.0.0.1:${port}/health`);
      workers.push(spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], { env: { ...process.env, ...env, WORKER_HEALTH_PORT: String(port) }, stdio: 'ignore' }));
    }
    // every worker takes jobs before the first message is queued
    await until(
      async () => {
        const exited = workers.find((w) => w.exitCode !== null);
        if (exited) throw new Error(`a worker exited with code ${exited.exitCode} before it was healthy`);
        return (
          await Promise.all(
            healthUrls.map((u) =>
              fetch(u).then(
                (r) => r.ok,
                () => false,
              ),
            ),
          )
        ).every(Boolean)
          ? true
          : undefined;
      },
      120_000,
      'workers healthy',
    ); // three Node processes starting at once on a busy two-core host can take a minute
  }, 150_000);

  it(`${PACED} messages at ${RATE}/s: no second over ${RATE} at the Cloud API; the other number's messages go first`, async () => {
    // queued as the gateway queues them, the other number's messages last; one recipient per message,
    // so each arrival names its message
    const job = (senderId: string, i: number) => {
      const messageId = randomUUID();
      const recipient = `9198765${String(i).padStart(5, '0')}`;
      const data: CarouselDispatchJob = { messageId, botId: stack.seed.botId, templateId: stack.seed.templateId, senderId, channel: 'whatsapp', recipient, cards: CARDS };
      return { name: 'send' as const, data, opts: { jobId: messageId, attempts: 5, backoff: { type: 'exponential', delay: 2000 } } };
    };
    await queue.addBulk([...Array.from({ length: PACED }, (_, i) => job(pacedSenderId, i)), ...Array.from({ length: OTHER }, (_, i) => job(otherSenderId, PACED + i))]);

    // every message, each counted once here; a send repeated (its answer timed out on a starved host,
    // say) is another arrival, and counts against the rate below like any other
    const delivered = () => new Set(stack.cloud.arrivals.map((a) => a.to)).size;
    await until(async () => (delivered() >= PACED + OTHER ? true : undefined), 60_000, 'every message sent');
    const paced = stack.cloud.arrivals.filter((a) => a.phoneNumberId === stack.seed.phoneNumberId);
    const other = stack.cloud.arrivals.filter((a) => a.phoneNumberId === otherPhoneNumberId);
    expect(new Set(paced.map((a) => a.to)).size).toBe(PACED);
    expect(new Set(other.map((a) => a.to)).size).toBe(OTHER);

    const perSecond = new Map<number, number>();
    for (const a of paced) perSecond.set(Math.floor(a.at / 1000), (perSecond.get(Math.floor(a.at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(RATE);
    // queued after all 200, yet sent while most of them still wait for their slots
    const lastOther = Math.max(...other.map((a) => a.at));
    expect(paced.filter((a) => a.at <= lastOther).length).toBeLessThan(PACED / 2);
  }, 120_000);
});
