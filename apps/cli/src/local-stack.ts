import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stack's settings, shared by `npm run up` (which writes them) and the CLI (which reads them).
 * `up` starts Postgres with a generated password, keeps the encryption keys in .local/encryption-keys
 * and runs sandboxes on loopback: none of that is in the developer's shell, so before this file the CLI
 * could not reach the local stack without values `up` hid (the password is masked on screen).
 *
 * .local/ is the checkout's (UP_LOCAL_DIR moves it, as for `up`). Both files are mode 0600.
 */
export const STACK_FILE = 'stack.json';

/** The variables `up` gives its apps that the CLI needs too (secrets other than the database URL stay out). */
const SHARED = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'WHATSAPP_API_BASE_URL',
  'WEBHOOK_ALLOW_HTTP',
  'WEBHOOK_ALLOW_PRIVATE_ADDRESSES',
  'FCM_API_BASE_URL',
  'PUSH_ALLOW_INSECURE_TOKEN_URI',
];

export function localDir(): string {
  return process.env.UP_LOCAL_DIR ?? join(process.cwd(), '.local');
}

/** `up`: records the settings of the stack it runs, for the CLI. */
export function writeLocalStack(env: Record<string, string>, keysFromFile: boolean, dir = localDir()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, STACK_FILE);
  const shared = Object.fromEntries(SHARED.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  writeFileSync(
    file,
    `${JSON.stringify({ note: 'written by npm run up for the CLI; see apps/cli/src/local-stack.ts', env: shared, encryptionKeys: keysFromFile ? 'file' : 'environment' }, null, 2)}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}

export interface DiscoveredStack {
  /** Variables to use where neither the command's env nor process.env sets them. */
  env: Record<string, string>;
  /** The files they came from, for the line the CLI prints. */
  from: string[];
}

/**
 * The local stack's settings for a CLI run whose env names no database: from .local/stack.json, and
 * ENCRYPTION_KEYS from .local/encryption-keys. Nothing when DATABASE_URL is set (a deployment's CLI,
 * or a test's) — then the operator's own settings are the whole truth — or when `up` never ran here.
 */
export function discoverLocalStack(given: Record<string, string | undefined>, dir = localDir()): DiscoveredStack | undefined {
  if (given.DATABASE_URL) return undefined;
  const stackFile = join(dir, STACK_FILE);
  if (!existsSync(stackFile)) return undefined;
  const stack = JSON.parse(readFileSync(stackFile, 'utf8')) as { env?: Record<string, string>; encryptionKeys?: string };
  const stored = stack.env ?? {};
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(stored)) if (given[k] === undefined && typeof v === 'string') env[k] = v;
  // A Redis Cluster of the developer's and the local Redis of `up` are exclusive: one of them, as up chose.
  if (given.REDIS_URL !== undefined || given.REDIS_CLUSTER_NODES !== undefined) {
    delete env.REDIS_URL;
    delete env.REDIS_CLUSTER_NODES;
  }
  const from = [stackFile];
  const keysFile = join(dir, 'encryption-keys');
  // When `up` had ENCRYPTION_KEYS from its environment, the file (if any) is not the stack's keyring.
  if (given.ENCRYPTION_KEYS === undefined && stack.encryptionKeys !== 'environment' && existsSync(keysFile)) {
    env.ENCRYPTION_KEYS = readFileSync(keysFile, 'utf8').trim();
    from.push(keysFile);
  }
  return { env, from };
}
