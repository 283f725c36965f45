import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import { DatabaseUnavailableError } from '@platform/database';
import { RedisUnavailableError } from '@platform/queue';
import { outageMessage, toErrorResponse } from './error-response.filter.js';

const DB_DOWN = 'The database is unavailable; nothing was done. Retry later.';
const QUEUE_DOWN = 'The message queue is unavailable; nothing was queued. Retry later.';

describe('toErrorResponse', () => {
  it('answers an outage of Postgres or Redis 500 with the sentence naming it and Retry-After', () => {
    expect(toErrorResponse(new DatabaseUnavailableError(new Error('connect ECONNREFUSED')))).toEqual({
      statusCode: 500,
      body: { message: DB_DOWN, status: 'error' },
      headers: { 'retry-after': '5' },
    });
    expect(toErrorResponse(new RedisUnavailableError('queueing the messages timed out after 1500 ms'))).toEqual({
      statusCode: 500,
      body: { message: QUEUE_DOWN, status: 'error' },
      headers: { 'retry-after': '5' },
    });
  });

  it('does not take an error for an outage because of what its message says', () => {
    for (const err of [new Error('Connection is closed.'), new Error("Can't reach database server"), Object.assign(new Error('Redis'), { name: 'PrismaClientKnownRequestError' })]) {
      expect(outageMessage(err)).toBeUndefined();
      expect(toErrorResponse(err)).toEqual({ statusCode: 500, body: { message: 'Internal server error', status: 'error' }, headers: {} });
    }
  });

  it('keeps 4xx answers as they are', () => {
    expect(toErrorResponse(new BadRequestException('bot is required'))).toEqual({ statusCode: 400, body: { message: 'bot is required', status: 'error' }, headers: {} });
  });

  it("carries a refused definition's errors list, and nothing else a 4xx's response object holds", () => {
    const errors = [{ journey: 'welcome', node: 'ask', field: 'answer.pattern', message: 'is not a valid regular expression' }];
    expect(toErrorResponse(new BadRequestException({ message: 'Invalid bot definition: …', errors, internal: 'x' }))).toEqual({
      statusCode: 400,
      body: { message: 'Invalid bot definition: …', status: 'error', errors },
      headers: {},
    });
  });
});
