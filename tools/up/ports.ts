import { createServer } from 'node:net';
import { PortBusyError } from './port-busy.error.js';

/** A port `up` will listen on: what listens there and the env variable that moves it. */
export interface NeededPort {
  port: number;
  host: string;
  what: string;
  variable: string;
}

/**
 * Throws a PortBusyError naming every port of `ports` another process holds. `up` checks them all
 * before it starts anything: otherwise a busy gateway port showed the "ready" banner above a gateway that
 * had already died, and a busy sandbox port ended in a message without its cause.
 * Port 0 (any free port) is never busy.
 */
export async function assertPortsFree(ports: NeededPort[]): Promise<void> {
  const busy: string[] = [];
  for (const p of ports) {
    if (p.port === 0) continue;
    const problem = await tryListen(p.port, p.host);
    if (problem) busy.push(`port ${p.port} (${p.what}) is ${problem}: set ${p.variable} to another port`);
  }
  if (busy.length) throw new PortBusyError(busy.join('\n'));
}

/** undefined when `port` can be bound on `host` now; otherwise why not ("in use by another process"). */
function tryListen(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRINUSE' ? 'in use by another process' : err.code === 'EACCES' ? 'not allowed to this user' : `not usable (${err.code ?? err.message})`),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}
