import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import PinoPretty from 'pino-pretty';
import { platformNodeOptions } from '@platform/common';

/** Restarts in a row (each within RESTART_WINDOW_MS of the previous one) after which `up` gives up. */
export const RESTART_LIMIT = Number(process.env.UP_RESTART_LIMIT ?? 5);
/** A run that lasted this long counts as healthy: the next crash starts the count again. */
const RESTART_WINDOW_MS = 60_000;
/** Pause before a restart, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1_000;
/** The apps' own shutdown bound (runMain's shutdownTimeoutMs) … */
const APP_SHUTDOWN_MS = 10_000;
/** … and the margin `up` allows on top before it kills one that overran it. */
const KILL_MARGIN_MS = 2_000;

/**
 * A built app run as a child process under `up`: its JSON logs made readable and prefixed with its
 * name, restarted with a log line when it exits on its own (up to RESTART_LIMIT times in a row, then
 * `onGiveUp`), stopped with SIGTERM on `stop()`.
 *
 * Each app runs in a process group of its own: a terminal's Ctrl-C then reaches `up` alone, which
 * stops the apps before the Postgres and Redis they still need for their shutdown.
 */
export class SupervisedApp {
  private child?: ChildProcess;
  private stopping = false;
  private restarts = 0;
  private startedAt = 0;
  /** When it last wrote a line (`up` waits for a quiet moment before its credentials, so they stay last). */
  lastOutputAt = 0;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly say: (line: string) => void,
    private readonly onGiveUp: (app: SupervisedApp) => void,
  ) {}

  /** Starts it; false when it is not built. */
  start(): boolean {
    if (!existsSync(this.entry)) {
      this.say(`(${this.name} not built: ${this.entry} missing, skipped)`);
      return false;
    }
    this.spawn();
    return true;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** SIGTERM, then SIGKILL if it overruns its own shutdown bound (with a line saying so). */
  stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.say(`[${this.name}] did not stop within ${APP_SHUTDOWN_MS / 1000} s of SIGTERM; killed`);
        child.kill('SIGKILL');
      }, APP_SHUTDOWN_MS + KILL_MARGIN_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private spawn(): void {
    const child = spawn(process.execPath, [this.entry], {
      env: { ...process.env, NODE_OPTIONS: platformNodeOptions(), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    this.say(`[${this.name}] started (pid ${child.pid})`);
    const pretty = PinoPretty({
      colorize: process.stdout.isTTY,
      // The request id too: each request is one line (libs/logger request-log.ts), not a line plus its bindings.
      ignore: 'pid,hostname,name,context,reqId',
      messageFormat: `[${this.name}] {if context}{context}: {end}{msg}`,
      destination: 1,
    });
    child.stdout!.on('data', () => (this.lastOutputAt = Date.now()));
    child.stdout!.pipe(pretty);
    child.stderr!.on('data', (chunk: Buffer) => {
      this.lastOutputAt = Date.now();
      process.stderr.write(`[${this.name}] ${chunk}`);
    });
    child.on('exit', (code, signal) => this.exited(code, signal));
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ?? `code ${code}`;
    if (this.stopping) {
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') this.say(`[${this.name}] exited with ${how}`);
      return;
    }
    if (Date.now() - this.startedAt >= RESTART_WINDOW_MS) this.restarts = 0;
    if (this.restarts >= RESTART_LIMIT) {
      this.say(`[${this.name}] exited with ${how}; restarted ${this.restarts} times in a row already, giving up`);
      this.onGiveUp(this);
      return;
    }
    this.restarts++;
    this.say(`[${this.name}] exited with ${how}; restarting (${this.restarts} of ${RESTART_LIMIT})`);
    setTimeout(() => {
      if (!this.stopping) this.spawn();
    }, RESTART_DELAY_MS);
  }
}
