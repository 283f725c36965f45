// Baseline of `npm run bench:webhooks`: the least a WhatsApp status webhook can do. A plain Fastify server
// whose POST route checks Meta's X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret),
// parses the JSON, and for each status writes it into the `messages` row of its wamid with one UPDATE per
// status on a node-postgres pool (a prepared statement, the gateway's pool size), moving the message only
// forward (sent < failed < delivered < read) and keeping delivered/read times already recorded; then
// answers 200. No envelope validation, no held statuses for unknown wamids, no lifecycle stream, no
// postbacks. Run from dist by bench/webhooks.ts:
//   DATABASE_URL=postgres://… APP_SECRET=… PORT=3101 node dist/bench/baseline/fastify-pg-webhook-server.js
import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const appSecret = need('APP_SECRET');
const port = Number(need('PORT'));
const pool = new pg.Pool({ connectionString: need('DATABASE_URL'), max: Number(process.env.POOL_SIZE ?? 10) });

interface MetaStatus {
  id: string;
  status: string;
  timestamp: string;
}
interface Notification {
  entry?: Array<{ changes?: Array<{ value?: { statuses?: MetaStatus[] } }> }>;
}

const UPDATE = `UPDATE "messages" SET "status" = $2::"MessageStatus",
    "delivered_at" = COALESCE("delivered_at", CASE WHEN $2 IN ('delivered', 'read') THEN $3::timestamptz END),
    "read_at" = COALESCE("read_at", CASE WHEN $2 = 'read' THEN $3::timestamptz END),
    "updated_at" = now()
  WHERE "provider_message_id" = $1
    AND COALESCE(array_position('{sent,failed,delivered,read}'::"MessageStatus"[], "status"), 0) < array_position('{sent,failed,delivered,read}'::"MessageStatus"[], $2::"MessageStatus")`;

const app = Fastify();
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

app.get('/health', async () => ({ status: 'ok' }));

app.post('/webhooks/whatsapp', async (req, reply) => {
  const raw = req.body as Buffer;
  const header = req.headers['x-hub-signature-256'];
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  const given = typeof header === 'string' && header.startsWith('sha256=') ? Buffer.from(header.slice(7), 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply.code(401).send({ message: 'bad signature' });
  const body = JSON.parse(raw.toString('utf8')) as Notification;
  for (const entry of body.entry ?? [])
    for (const change of entry.changes ?? [])
      for (const s of change.value?.statuses ?? []) await pool.query({ name: 'baseline-status', text: UPDATE, values: [s.id, s.status, new Date(Number(s.timestamp) * 1000)] });
  return { message: 'Statuses recorded', status: 'success' };
});

await app.listen({ port, host: '127.0.0.1' });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
