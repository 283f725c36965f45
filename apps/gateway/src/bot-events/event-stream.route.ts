import websocket from '@fastify/websocket';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { StreamConnection } from './stream-connection.js';
import { StreamHub } from './stream-hub.service.js';

export const STREAM_PATH = '/v1/bots/:botId/sessions/:sessionId/stream';

/** Registers the event-stream WebSocket route on the gateway's Fastify server (@fastify/websocket). */
@Injectable()
export class EventStreamRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly hub: StreamHub,
  ) {}

  async onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // In its own plugin scope, so that @fastify/websocket's per-request hooks run on this route only.
    await fastify.register(async (scope) => {
      // Clients only send small auth and ack frames.
      await scope.register(websocket, { options: { maxPayload: 16 * 1024 } });
      scope.get(STREAM_PATH, { websocket: true }, (socket, req) => {
        const { botId, sessionId } = req.params as { botId: string; sessionId: string };
        new StreamConnection(socket, botId, sessionId, this.hub.deps);
      });
    });
  }
}
