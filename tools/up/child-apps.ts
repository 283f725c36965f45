import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import PinoPretty from 'pino-pretty';
import { platformNodeOptions } from '@platform/common';

/** Runs a built app as a child process, its JSON logs made readable and prefixed with its name. */
export function startApp(name: string, entry: string, env: Record<string, string>): ChildProcess | undefined {
  if (!existsSync(entry)) {
    process.stdout.write(`(${name} not built: ${entry} missing, skipped)\n`);
    return undefined;
  }
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, NODE_OPTIONS: platformNodeOptions(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pretty = PinoPretty({
    colorize: process.stdout.isTTY,
    ignore: 'pid,hostname,name,context',
    messageFormat: `[${name}] {if context}{context}: {end}{msg}`,
    destination: 1,
  });
  child.stdout!.pipe(pretty);
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') process.stderr.write(`[${name}] exited with ${signal ?? `code ${code}`}\n`);
  });
  return child;
}

export async function stopApps(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}
