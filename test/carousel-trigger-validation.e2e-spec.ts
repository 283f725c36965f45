import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { CarouselDispatchQueue } from '@platform/queue';
import { SeededBot, carouselBody, createTestEnv, seedCarouselBot } from '@platform/testing';

type Body = ReturnType<typeof carouselBody>;

describe('carousel trigger: bad input is answered 400 naming the problem, and nothing is queued', () => {
  let gateway: NestFastifyApplication;
  let url: string;
  let seed: SeededBot;

  beforeAll(async () => {
    gateway = await createGateway(await createTestEnv());
    url = await listenGateway(gateway);
    seed = await seedCarouselBot(gateway);
  });
  afterAll(() => gateway?.close());

  const post = (body: string, contentType = 'application/json', query = `?bot=${seed.botId}`) =>
    fetch(`${url}/api/engagements/notifications/v2/push${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-api-key': seed.apiKey },
      body,
    });

  async function expect400(res: Response, messagePart: string | RegExp) {
    const body = await res.json();
    expect({ status: res.status, body }).toEqual({
      status: 400,
      body: { status: 'error', message: expect.stringMatching(typeof messagePart === 'string' ? escape(messagePart) : messagePart) },
    });
  }

  const mutate = (fn: (b: Body) => void) => {
    const b = carouselBody(seed);
    fn(b);
    return JSON.stringify(b);
  };

  it.each([
    ['userDetails', (b: any) => delete b.userDetails, 'userDetails is required'],
    ['userDetails.number', (b: any) => delete b.userDetails.number, 'userDetails.number is required'],
    ['notification', (b: any) => delete b.notification, 'notification is required'],
    ['notification.templateId', (b: any) => delete b.notification.templateId, 'notification.templateId is required'],
    ['notification.type', (b: any) => delete b.notification.type, 'notification.type is required'],
    ['notification.sender', (b: any) => delete b.notification.sender, 'notification.sender is required'],
    ['notification.params', (b: any) => delete b.notification.params, 'notification.params is required'],
    ['notification.params.cards', (b: any) => delete b.notification.params.cards, 'notification.params.cards is required'],
    ['cards[1].media', (b: any) => delete b.notification.params.cards[1].media, 'notification.params.cards[1].media is required'],
    ['cards[2].media.mediaLink', (b: any) => delete b.notification.params.cards[2].media.mediaLink, 'notification.params.cards[2].media.mediaLink is required'],
  ])('missing %s', async (_name, fn, message) => {
    await expect400(await post(mutate(fn)), message);
  });

  it.each([
    ['userDetails', (b: any) => (b.userDetails = 'x'), 'userDetails must be an object'],
    ['userDetails.number', (b: any) => (b.userDetails.number = 919876543210), 'userDetails.number must be a string'],
    ['notification', (b: any) => (b.notification = []), 'notification must be an object'],
    ['notification.templateId', (b: any) => (b.notification.templateId = 7), 'notification.templateId must be a string'],
    ['notification.type', (b: any) => (b.notification.type = true), 'notification.type must be a string'],
    ['notification.sender', (b: any) => (b.notification.sender = { n: 1 }), 'notification.sender must be a string'],
    ['notification.params', (b: any) => (b.notification.params = 'cards'), 'notification.params must be an object'],
    ['notification.params.cards', (b: any) => (b.notification.params.cards = {}), 'notification.params.cards must be an array'],
    ['cards[0].media', (b: any) => (b.notification.params.cards[0].media = 'https://x'), 'notification.params.cards[0].media must be an object'],
    ['cards[0].media.mediaLink', (b: any) => (b.notification.params.cards[0].media.mediaLink = 5), 'notification.params.cards[0].media.mediaLink must be a string'],
  ])('wrong type of %s', async (_name, fn, message) => {
    await expect400(await post(mutate(fn)), message);
  });

  it('a bad media URL names the card', async () => {
    const body = mutate((b) => (b.notification.params.cards[2].media.mediaLink = 'ftp://cdn.example.com/a.jpg'));
    await expect400(await post(body), 'notification.params.cards[2].media.mediaLink must be an http(s) URL');
  });

  it.each(['12345', '+12 345 678 901', 'abcdefghij', '+0919876543210', '1234567890123456'])('bad recipient number %s', async (n) => {
    await expect400(await post(mutate((b) => (b.userDetails.number = n))), 'userDetails.number must be a mobile number with country code');
  });

  it('a bad sender number', async () => {
    await expect400(await post(mutate((b) => (b.notification.sender = '555'))), 'notification.sender must be a mobile number');
  });

  it('a channel that is not lowercase whatsapp', async () => {
    await expect400(await post(mutate((b) => (b.notification.type = 'WhatsApp'))), 'notification.type must be one of: whatsapp');
  });

  it('a sender the bot does not have', async () => {
    await expect400(await post(mutate((b) => (b.notification.sender = '+15559999999'))), 'notification.sender is not a whatsapp sender of this bot');
  });

  it("a template that is not the bot's", async () => {
    const other = await seedCarouselBot(gateway);
    await expect400(await post(mutate((b) => (b.notification.templateId = other.templateId))), 'notification.templateId is not a carousel template of this bot');
    await expect400(await post(mutate((b) => (b.notification.templateId = 'summer'))), 'notification.templateId is not a carousel template of this bot');
  });

  it('a card count other than the template’s', async () => {
    const body = JSON.stringify(carouselBody(seed, 2));
    await expect400(await post(body), 'notification.params.cards must have exactly 3 cards for this template (got 2)');
  });

  it('unknown fields', async () => {
    await expect400(await post(mutate((b) => ((b.notification as any).priority = 'high'))), 'property notification.priority should not exist');
  });

  it('a body that is not JSON', async () => {
    await expect400(await post('{"userDetails":'), /JSON/);
  });

  it('an empty body', async () => {
    await expect400(await post(''), /[Bb]ody cannot be empty/);
  });

  it('a JSON body that is not an object', async () => {
    await expect400(await post('[1,2]'), /userDetails|object/);
  });

  it('a content type other than application/json', async () => {
    await expect400(await post(JSON.stringify(carouselBody(seed)), 'text/plain'), 'Content-Type text/plain is not supported; send application/json');
    await expect400(await post('userDetails=1', 'application/x-www-form-urlencoded'), /Content-Type application\/x-www-form-urlencoded is not supported/);
  });

  it('a missing bot query parameter', async () => {
    await expect400(await post(JSON.stringify(carouselBody(seed)), 'application/json', ''), 'query parameter bot is required');
  });

  it('queues nothing for any of the above', async () => {
    const queue = gateway.get(CarouselDispatchQueue);
    const jobs = await queue.getJobs(['wait', 'delayed', 'active', 'completed', 'failed']);
    expect(jobs.filter((j) => j.data.botId === seed.botId)).toHaveLength(0);
  });
});

function escape(s: string): RegExp {
  return new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}
