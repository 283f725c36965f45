import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * .local/ keeps what the local stack must remember across runs: data folders, keys, the demo bot's ids.
 * UP_LOCAL_DIR puts it elsewhere (tests run `up` without touching a developer's own state).
 */
export const LOCAL_DIR = process.env.UP_LOCAL_DIR ?? join(process.cwd(), '.local');

export function localPath(...parts: string[]): string {
  mkdirSync(LOCAL_DIR, { recursive: true, mode: 0o700 });
  return join(LOCAL_DIR, ...parts);
}

/** The local encryption keyring, generated once (losing it makes stored credentials unreadable). */
export function localEncryptionKeys(): string {
  const file = localPath('encryption-keys');
  if (!existsSync(file)) writeFileSync(file, `local1:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2), { mode: 0o600 });
}
