import { EventEmitter } from 'node:events';
import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserService } from '@platform/accounts';
import type { AuthEnv } from '@platform/config';
import type { MessageLiveEvent } from '@platform/contracts';
import type { MessageEventFeed } from './message-event-feed.js';
import { MessageStreamService } from './message-stream.service.js';
import type { StreamTicketStore, TicketHolder } from './stream-ticket.store.js';

/** A raw response that records what was written. */
class FakeResponse extends EventEmitter {
  written = '';
  writableEnded = false;
  destroyed = false;
  status = 0;
  writeHead(status: number) {
    this.status = status;
  }
  write(chunk: string) {
    this.written += chunk;
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
}

describe('MessageStreamService', () => {
  const holders = new Map<string, TicketHolder>();
  const tickets = {
    issue: async (h: TicketHolder) => (holders.set('bst_t', h), 'bst_t'),
    redeem: async (t: string) => {
      const h = holders.get(t) ?? null;
      holders.delete(t);
      return h;
    },
  } as unknown as StreamTicketStore;
  let listener: ((e: MessageLiveEvent) => void) | undefined;
  let unsubscribed = 0;
  const feed = {
    subscribe: async (_botId: string, l: (e: MessageLiveEvent) => void) => {
      listener = l;
      return () => unsubscribed++;
    },
  } as unknown as MessageEventFeed;
  const roles = new Map<string, string>([['u1:b1', 'viewer']]);
  const users = { roleOn: async (u: string, b: string) => roles.get(`${u}:${b}`) ?? null } as unknown as UserService;
  const service = new MessageStreamService(tickets, feed, users, { AUTH_ACCESS_TOKEN_TTL_SECONDS: 900 } as AuthEnv);

  const open = (botId: string, ticket: unknown, gone = false) => {
    const res = new FakeResponse();
    res.destroyed = gone;
    const reply = { raw: res, hijack: () => undefined } as unknown as FastifyReply;
    return { res, reply, done: service.stream(botId, ticket, { raw: { destroyed: false } } as unknown as FastifyRequest, reply) };
  };

  it('issues a ticket whose url opens the bot’s stream', async () => {
    expect(await service.ticket('u1', 'b1')).toEqual({ ticket: 'bst_t', expiresIn: 30, url: '/v1/bots/b1/messages/stream?ticket=bst_t' });
  });

  it('refuses a missing ticket, one for another bot, and a holder without a role on the bot', async () => {
    await expect(open('b1', undefined).done).rejects.toBeInstanceOf(UnauthorizedException);
    await service.ticket('u1', 'b1');
    await expect(open('b2', 'bst_t').done).rejects.toBeInstanceOf(UnauthorizedException);
    await expect(open('b1', 'bst_t').done).rejects.toBeInstanceOf(UnauthorizedException); // spent by the try above
    await service.ticket('u2', 'b1');
    await expect(open('b1', 'bst_t').done).rejects.toBeInstanceOf(ForbiddenException);
  });

  it('writes ready, then each event of the feed, and ends with `end` at shutdown, leaving the feed', async () => {
    await service.ticket('u1', 'b1');
    const { res, done } = open('b1', 'bst_t');
    await done;
    expect(res.status).toBe(200);
    listener!({ msgId: 'm1', status: 'queued', at: '2026-11-25T10:00:00.000Z', recipient: '9198' });
    expect(res.written).toBe('event: ready\ndata: {}\n\nevent: status\ndata: {"msgId":"m1","status":"queued","at":"2026-11-25T10:00:00.000Z","recipient":"9198"}\n\n');
    expect(service.openStreams).toBe(1);
    service.beforeApplicationShutdown();
    expect(res.written).toMatch(/event: end\ndata: \{"reason":"the server is shutting down"\}\n\n$/);
    expect(res.writableEnded).toBe(true);
    expect(service.openStreams).toBe(0);
    expect(unsubscribed).toBe(1);
  });

  it('releases the feed when the client leaves', async () => {
    await service.ticket('u1', 'b1');
    const { res, done } = open('b1', 'bst_t');
    await done;
    const before = unsubscribed;
    res.emit('close');
    expect(unsubscribed).toBe(before + 1);
    expect(service.openStreams).toBe(0);
  });

  it('releases the feed at once when the client left while the feed was starting', async () => {
    await service.ticket('u1', 'b1');
    const before = unsubscribed;
    await open('b1', 'bst_t', true).done;
    expect(unsubscribed).toBe(before + 1);
    expect(service.openStreams).toBe(0);
  });
});
