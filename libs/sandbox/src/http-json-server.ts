import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  body: unknown;
}

/** Base of the loopback servers that stand in for outside providers (tests and the local demo). */
export abstract class HttpJsonServer {
  readonly requests: RecordedRequest[] = [];
  /** Keep every request in `requests` (tests); benchmarks turn it off so memory stays flat. */
  record = true;
  private server?: Server;
  baseUrl = '';

  protected abstract handle(req: RecordedRequest, res: ServerResponse): void | Promise<void>;

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: unknown = rawBody;
        try {
          body = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          /* not JSON: keep the text */
        }
        const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, body };
        if (this.record) this.requests.push(recorded);
        Promise.resolve(this.handle(recorded, res)).catch((err) => sendJson(res, 500, { error: String(err) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const addr = this.server.address() as AddressInfo;
    this.baseUrl = `http://${host}:${addr.port}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
