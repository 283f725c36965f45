// A stand-in for the platform's gateway on 127.0.0.1: the session endpoint over HTTP and the event
// stream over a real `ws` WebSocketServer. Tests drive the stream side by hand.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StreamConnection {
  path: string;
  socket: WebSocket;
  /** Client frames received, parsed. */
  frames: Array<Record<string, unknown>>;
  closed: Promise<number>;
  send(frame: unknown): void;
}

export class LoopbackPlatform {
  readonly sessionRequests: Array<{ path: string; body: unknown }> = [];
  readonly connections: StreamConnection[] = [];
  private readonly wss: WebSocketServer;

  private constructor(private readonly server: Server) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket, request) => this.accept(socket, request));
    server.on('request', (request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        if (request.method !== 'POST' || !/^\/v1\/bots\/[^/]+\/sessions$/.test(request.url ?? '')) {
          response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"not found","status":"error"}');
          return;
        }
        this.sessionRequests.push({ path: request.url ?? '', body: JSON.parse(raw) });
        const sessionId = `s${this.sessionRequests.length}`;
        response.writeHead(201, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ sessionId, streamUrl: `ws://127.0.0.1:${this.port}/v1/stream/${sessionId}` }));
      });
    });
  }

  static async start(): Promise<LoopbackPlatform> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new LoopbackPlatform(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async connection(index: number): Promise<StreamConnection> {
    await waitFor(() => this.connections.length > index, `stream connection #${index + 1}`);
    return this.connections[index];
  }

  async stop(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const frames: Array<Record<string, unknown>> = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    this.connections.push({ path: request.url ?? '', socket, frames, closed, send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)) });
  }
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An event frame as the platform sends it. */
export function eventFrame(id: string, code: string, data: object | string): object {
  return {
    type: 'event',
    id,
    event: { code: 'sendReactNativeEvent', data: { code, data: typeof data === 'string' ? data : JSON.stringify(data) } },
  };
}
