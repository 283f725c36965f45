import Fastify from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { NestFactory } from '@nestjs/core';
import { Controller, Get, Module } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { oneLineRequestLogging } from './request-log.js';
import { PinoNestLogger } from './logger.js';

/** Records a pino logger's lines (JSON), as they would reach stdout. */
function recorder(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

@Controller('things')
class ThingsController {
  @Get()
  list() {
    return [];
  }
}
@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** Quiet logs by default: one line per request, no start-up chatter; LOG_LEVEL=debug brings the chatter back. */
describe('quiet logs', () => {
  it('writes one line per request, at info, with the path but not the query string', async () => {
    const { logger, lines } = recorder('info');
    const fastify = Fastify({ loggerInstance: logger, ...oneLineRequestLogging() });
    fastify.get('/things/:id', () => ({ ok: true }));
    // Over a socket (light-my-request's inject needs an ESM-only cookie package Jest cannot require).
    const url = await fastify.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${url}/things/7?ticket=secret-ticket`)).status).toBe(200);
    expect((await fetch(`${url}/nothing-here`)).status).toBe(404);
    await fastify.close();
    const requestLines = lines.filter((l) => l.reqId);
    expect(requestLines).toEqual([
      expect.objectContaining({ level: 30, msg: expect.stringMatching(/^GET \/things\/7 200 \d+ ms$/) }),
      expect.objectContaining({ level: 30, msg: expect.stringMatching(/^GET \/nothing-here 404 \d+ ms$/) }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-ticket');
  });

  it.each([
    ['info', 0],
    ['debug', 1],
  ])("logs Nest's route mapping and module loading only at debug (LOG_LEVEL=%s)", async (level, mapped) => {
    const { logger, lines } = recorder(level);
    const app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter({ loggerInstance: logger, ...oneLineRequestLogging() }), { logger: new PinoNestLogger(logger) });
    await app.init();
    await app.close();
    const texts = lines.map((l) => String(l.msg));
    expect(texts.filter((t) => t.startsWith('Mapped {/things, GET}'))).toHaveLength(mapped);
    expect(texts.filter((t) => /dependencies initialized/.test(t)).length > 0).toBe(mapped === 1);
    if (level === 'info') expect(texts).toEqual([]); // nothing at all from a quiet start
  });
});
