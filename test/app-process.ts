// A built app (dist/) run as a child process, the way it runs in production: its signals, its own
// event loop, its exit. Tests that look at the process's edges (sockets, shutdown) use it.
import { ChildProcess, spawn } from 'node:child_process';
import { IncomingMessage, RequestOptions, request } from 'node:http';
import { freePort } from '@platform/local-infra';
import { until } from '@platform/testing';

export interface AppProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGKILL if it still runs (for afterAll). */
  kill(): Promise<void>;
}

/** Starts a built app with `env` on a free port and waits (generously) until `readyPath` answers 200. */
export async function startAppProcess(entry: string, env: Record<string, string>, options: { portVar?: string; readyPath?: string } = {}): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, [options.portVar ?? 'PORT']: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const app: AppProcess = {
    child,
    url,
    port,
    output: () => output,
    exited,
    kill: async () => {
      if (gone) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await until(
      async () => {
        if (gone) throw new Error(`${entry} exited before it answered: ${output}`);
        return fetch(`${url}${options.readyPath ?? '/health/live'}`).then(
          (r) => (r.status === 200 ? true : undefined),
          () => undefined,
        );
      },
      90_000,
      `${entry} answering`,
    );
  } catch (err) {
    await app.kill();
    throw err;
  }
  return app;
}

/**
 * A GET by node:http, for what fetch cannot do here (an Agent of the test's own, a response read as it
 * streams); resolves with the response once its headers came, rejects on a socket error before them.
 */
export function httpGet(url: string, options: RequestOptions = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, resolve);
    req.on('error', reject);
    req.end();
  });
}
