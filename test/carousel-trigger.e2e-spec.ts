import { ApiKeyService } from '@platform/accounts';
import { ApiKeyRepository } from '@platform/database';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { carouselBody, messageStatus, seedCarouselBot, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** The gateway's /metrics is on its public port: this test's token opens it. */
const METRICS_TOKEN = 'metrics-token-of-the-trigger-test';

describe('carousel trigger: HTTP → queue → worker → WhatsApp Cloud API', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({
    cloud,
    worker: true,
    seed: true,
    env: { WHATSAPP_BACKOFF_MS: '20', WHATSAPP_BACKOFF_MAX_MS: '500', WHATSAPP_TIMEOUT_MS: '500', METRICS_TOKEN: METRICS_TOKEN },
  });

  const trigger = (body: unknown, headers: Record<string, string> = {}, bot = stack.seed.botId) =>
    fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${bot}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const status = (msgId: string) => messageStatus(stack.url, stack.seed, msgId);
  const waitForStatus = (msgId: string, want: string[], timeoutMs?: number) => waitForMessageStatus(stack.url, stack.seed, msgId, want, timeoutMs);

  it('queues, sends exactly the expected Cloud API request and ends sent', async () => {
    const before = cloud.messages.length;
    const res = await trigger(carouselBody(stack.seed));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ message: expect.any(String), status: 'success', msgId: expect.any(String) });

    const final = await waitForStatus(body.msgId, ['sent', 'failed']);
    expect(final).toMatchObject({ status: 'sent', attempts: 1, lastError: null, recipient: '919876543210' });
    expect(final.providerMessageId).toMatch(/^wamid\./);

    const sent = cloud.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(`/v21.0/${stack.seed.phoneNumberId}/messages`);
    expect(sent[0].headers.authorization).toBe(`Bearer ${stack.seed.accessToken}`);
    expect(sent[0].body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'summer_carousel',
        language: { code: 'en_US' },
        components: [
          {
            type: 'carousel',
            cards: [0, 1, 2].map((i) => ({
              card_index: i,
              components: [{ type: 'header', parameters: [{ type: 'image', image: { link: `https://cdn.example.com/card-${i}.jpg` } }] }],
            })),
          },
        ],
      },
    });
  });

  it('retries provider 500, 500 then 200 and ends sent after 3 attempts', async () => {
    cloud.reply({ status: 500, errorCode: 131000 }, { status: 500, errorCode: 131000 });
    const res = await trigger(carouselBody(stack.seed));
    expect(res.status).toBe(200);
    const final = await waitForStatus((await res.json()).msgId, ['sent', 'failed']);
    expect(final).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it('fails at once on provider 400 with code 131026, recording Meta’s code', async () => {
    cloud.reply({ status: 400, errorCode: 131026, errorMessage: 'Message undeliverable' });
    const res = await trigger(carouselBody(stack.seed));
    const final = await waitForStatus((await res.json()).msgId, ['sent', 'failed']);
    expect(final).toMatchObject({ status: 'failed', attempts: 1, lastError: { code: '131026', text: 'Message undeliverable' } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await status(final.msgId)).attempts).toBe(1);
  });

  it('keeps retrying past WHATSAPP_MAX_ATTEMPTS while the provider keeps failing within the validity, and ends sent once it answers', async () => {
    cloud.reply(...Array.from({ length: 8 }, () => ({ status: 503, errorCode: 131016, errorMessage: 'Service unavailable' })));
    const res = await trigger(carouselBody(stack.seed));
    const final = await waitForStatus((await res.json()).msgId, ['sent', 'failed'], 30_000);
    expect(final).toMatchObject({ status: 'sent', attempts: 9, lastError: null });
  }, 120_000);

  it('retries a timed-out request', async () => {
    cloud.reply({ hang: true });
    const res = await trigger(carouselBody(stack.seed));
    const final = await waitForStatus((await res.json()).msgId, ['sent', 'failed'], 15_000);
    expect(final).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('is described in the OpenAPI document (it is a Fastify route, outside the Swagger scanner)', async () => {
    const doc = await (await fetch(`${stack.url}/docs/openapi.json`)).json();
    const op = doc.paths['/api/engagements/notifications/v2/push']?.post;
    expect(op).toMatchObject({ tags: ['carousel'], responses: { '200': expect.any(Object), '400': expect.any(Object), '401': expect.any(Object) } });
    expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'bot', in: 'query', required: true }), expect.objectContaining({ name: 'x-api-key', in: 'header' })]));
    // The body's schema comes from the DTOs' class-validator rules, nested DTOs included.
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TriggerCarouselDto' });
    const { schemas } = doc.components;
    expect(schemas.TriggerCarouselDto.required).toEqual(['userDetails', 'notification']);
    expect(schemas.UserDetailsDto.properties.number.pattern).toBe('^\\+?[1-9][0-9]{7,14}$');
    expect(schemas.CarouselParamsDto.properties.cards).toMatchObject({ type: 'array', minItems: 1, maxItems: 10 });
    expect(schemas.CardMediaDto).toMatchObject({ required: ['mediaLink'], properties: { mediaLink: { type: 'string', maxLength: 2048 } } });
  });

  it('describes every request body in the OpenAPI document with its fields', async () => {
    const { components } = await (await fetch(`${stack.url}/docs/openapi.json`)).json();
    const empty = Object.entries(components.schemas as Record<string, { properties?: object }>).filter(([, s]) => !s.properties || Object.keys(s.properties).length === 0);
    expect(empty.map(([name]) => name)).toEqual([]);
    expect(components.schemas.SendNotificationDto.required).toEqual(['title', 'body']);
  });

  it('counts queued messages and send outcomes in /metrics, which the public port answers only with METRICS_TOKEN', async () => {
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${stack.url}/metrics`, { headers: { authorization: 'Bearer not-the-metrics-token' } })).status).toBe(401);
    const text = await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(Number(/^carousel_messages_queued_total (\d+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(5);
    expect(text).toMatch(/^carousel_send_attempts_total\{outcome="retry"\} [1-9]/m);
    expect(text).toMatch(/^carousel_send_attempts_total\{outcome="failed"\} [1-9]/m);
  });

  describe('401', () => {
    it.each([
      ['missing key', { 'x-api-key': '' }],
      ['unknown key', { 'x-api-key': 'bpk_' + 'A'.repeat(43) }],
      ['malformed key', { 'x-api-key': 'not-a-key' }],
    ])('%s', async (_name, headers) => {
      const res = await trigger(carouselBody(stack.seed), headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: expect.any(String), status: 'error' });
    });

    it("another bot's key", async () => {
      const other = await seedCarouselBot(stack.gateway);
      const res = await trigger(carouselBody(stack.seed), { 'x-api-key': other.apiKey });
      expect(res.status).toBe(401);
    });

    it('a revoked key', async () => {
      const other = await seedCarouselBot(stack.gateway);
      const ok = await trigger(carouselBody(other), { 'x-api-key': other.apiKey }, other.botId);
      expect(ok.status).toBe(200);
      const [record] = await stack.gateway.get(ApiKeyRepository, { strict: false }).listByBot(other.botId);
      await stack.gateway.get(ApiKeyService, { strict: false }).revoke(other.botId, record.id);
      const res = await trigger(carouselBody(other), { 'x-api-key': other.apiKey }, other.botId);
      expect(res.status).toBe(401);
    });
  });
});
