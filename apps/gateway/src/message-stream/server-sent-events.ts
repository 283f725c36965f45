import type { ServerResponse } from 'node:http';

/**
 * A text/event-stream answer on a raw response: named events with JSON data, comment pings that keep
 * proxies from closing an idle connection, and an end. Writes after the client left are dropped.
 */
export class ServerSentEvents {
  private closed = false;

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx would otherwise buffer the answer and hold events back.
      'x-accel-buffering': 'no',
    });
    res.on('close', () => (this.closed = true));
  }

  get open(): boolean {
    return !this.closed && !this.res.writableEnded;
  }

  send(event: string, data: unknown): void {
    if (this.open) this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  ping(): void {
    if (this.open) this.res.write(': ping\n\n');
  }

  end(): void {
    this.closed = true;
    if (!this.res.writableEnded) this.res.end();
  }
}
