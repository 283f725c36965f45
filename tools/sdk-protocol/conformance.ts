// The SDK protocol's conformance vectors against any gateway:
//   node dist/tools/sdk-protocol/conformance.js --url http://127.0.0.1:3000 --bot <botId> --api-key <key> [--vectors test/sdk-protocol/vectors]
// The bot needs a webhook URL (app → bot events answer 409 without one). Exit code 1 when a vector fails.
import { parseArgs } from 'node:util';
import { loadVectors, runVector } from './run-vectors.js';

const { values } = parseArgs({ options: { url: { type: 'string' }, bot: { type: 'string' }, 'api-key': { type: 'string' }, vectors: { type: 'string', default: 'test/sdk-protocol/vectors' } } });
const apiKey = values['api-key'] ?? process.env.BOT_API_KEY;
if (!values.url || !values.bot || !apiKey) {
  process.stderr.write('usage: conformance --url <gateway base URL> --bot <botId> --api-key <API key of that bot, or BOT_API_KEY> [--vectors <dir>]\n');
  process.exit(2);
}
let failed = 0;
const live = loadVectors(values.vectors!).filter((v) => v.kind === 'live');
for (const vector of live) {
  try {
    await runVector(vector, { url: values.url, botId: values.bot, apiKey });
    process.stdout.write(`ok   ${vector.file}: ${vector.name}\n`);
  } catch (err) {
    failed++;
    process.stdout.write(`FAIL ${vector.file}: ${(err as Error).message}\n`);
  }
}
process.stdout.write(`${live.length - failed} of ${live.length} live vectors passed\n`);
process.exit(failed ? 1 : 0);
