import { ReencryptSecretsResult, SEALED_COLUMNS, reencryptSecrets } from '@platform/database';
import { CliCommand } from '../command.js';

/** Key rotation of everything stored sealed with ENCRYPTION_KEYS. */
async function reencrypt(app: Parameters<CliCommand['run']>[0], out: (line: string) => void): Promise<number> {
  const r = await reencryptSecrets(app);
  for (const line of reencryptReport(r)) out(line);
  return Object.keys(r.stillUnderOtherKeys).length === 0 ? 0 : 1;
}

/** What `keys reencrypt` prints: one line per kind of secret, then whether old keys can go. */
export function reencryptReport(r: ReencryptSecretsResult): string[] {
  const lines = [`stored secrets re-encrypted under key ${r.activeKeyId}:`];
  for (const c of SEALED_COLUMNS) {
    const k = r.kinds[c.kind];
    const notes = [
      k.changedMeanwhile ? `${k.changedMeanwhile} saved again meanwhile, already under it` : '',
      k.unreadable.length ? `${k.unreadable.length} could not be opened and were left as they are: ${k.unreadable.map((u) => `${u.id} (${u.reason})`).join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  ${c.label}: ${k.reencrypted}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  }
  const others = Object.entries(r.stillUnderOtherKeys);
  if (others.length === 0) {
    lines.push(
      `nothing stored is sealed under another key: once every gateway, worker and push service runs with ENCRYPTION_ACTIVE_KEY_ID=${r.activeKeyId}, the other keys can be removed from ENCRYPTION_KEYS`,
    );
  } else {
    const list = others.map(([id, n]) => `${id === '' ? '(not a sealed value)' : id}: ${n}`).join(', ');
    lines.push(
      `still sealed under other keys (${list}): do not remove those keys yet; make every app use ENCRYPTION_ACTIVE_KEY_ID=${r.activeKeyId}, add any missing key back to ENCRYPTION_KEYS and run this again`,
    );
  }
  return lines;
}

const summary =
  'Re-encrypt every stored secret (Firebase service accounts, WhatsApp sender access tokens, bot webhook signing secrets, hosted bot secrets) under ENCRYPTION_ACTIVE_KEY_ID; exit code 1 while anything is still under another key';

export const keyCommands: CliCommand[] = [
  { name: 'keys reencrypt', summary, options: {}, run: (app, _args, out) => reencrypt(app, out) },
  {
    name: 'push reencrypt',
    summary: 'Same as keys reencrypt (kept for older instructions): re-encrypts every stored secret, not only push configs',
    options: {},
    run: (app, _args, out) => reencrypt(app, out),
  },
];
