import { jest } from '@jest/globals';
import { Writable } from 'node:stream';
import pino from 'pino';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';
import { REDACT_PATHS } from './logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  const child = jest.spyOn(logger, 'child');
  return { logger, lines, child };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('lazyChildLoggerFactory', () => {
  it('builds no child for lines below the level, and writes enabled ones with the bindings and redaction', async () => {
    const { logger, lines, child } = capture('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-1' }, {});
    log.info('not written');
    log.debug({ a: 1 }, 'not written either');
    expect(child).not.toHaveBeenCalled();
    log.warn({ body: { token: 'secret-token' } }, 'written');
    await flush();
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-1', msg: 'written', body: { token: '[redacted]' } })]);
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });

  it('reports the level and hands a route-level option to pino at once', () => {
    const { logger, child } = capture('info');
    expect(lazyChildLoggerFactory(logger, { reqId: 'r' }, {}).level).toBe('info');
    lazyChildLoggerFactory(logger, { reqId: 'r' }, { level: 'debug' });
    expect(child).toHaveBeenCalledTimes(1);
  });
});
