import { chmodSync, writeFileSync } from 'node:fs';
import { localPath } from './local-state.js';

export interface RunCredentials {
  consoleUrl: string;
  email: string;
  password: string;
  botId: string;
  apiKey: string;
}

/**
 * Keeps this run's one-time secrets in .local/credentials (mode 0600, replaced each run): printed once,
 * they used to scroll away under the apps' logs. Answers the file's path.
 */
export function keepCredentials(c: RunCredentials): string {
  const file = localPath('credentials');
  const lines = [
    `# npm run up, ${new Date().toISOString()}: this run's credentials (new ones each run; this file is replaced)`,
    `console=${c.consoleUrl}`,
    `email=${c.email}`,
    `password=${c.password}`,
    `demo_bot=${c.botId}`,
    `api_key=${c.apiKey}`,
  ];
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}
