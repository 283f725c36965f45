import { AddressInfo, Server, Socket, createServer, connect } from 'node:net';

/**
 * A loopback TCP proxy whose existing connections can be black-holed: bytes in both directions are
 * dropped while both sockets stay open, as when a phone leaves a network without a FIN or RST.
 * Connections made afterwards forward normally (the phone's new network path).
 */
export class BlackHoleProxy {
  private readonly pairs = new Set<{ client: Socket; upstream: Socket; dead: boolean }>();
  connections = 0;

  private constructor(private readonly server: Server) {}

  static async start(targetPort: number): Promise<BlackHoleProxy> {
    const server = createServer();
    const proxy = new BlackHoleProxy(server);
    server.on('connection', (client) => proxy.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** From now on, the connections open at this moment carry nothing; none is closed. */
  blackHole(): void {
    for (const pair of this.pairs) pair.dead = true;
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, targetPort: number): void {
    this.connections += 1;
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, dead: false };
    this.pairs.add(pair);
    client.on('data', (chunk) => pair.dead || upstream.write(chunk));
    upstream.on('data', (chunk) => pair.dead || client.write(chunk));
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // A black-holed path reports no close either: each side only learns of it by its own timeouts.
    client.on('close', () => pair.dead || end());
    upstream.on('close', () => pair.dead || end());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  }
}
