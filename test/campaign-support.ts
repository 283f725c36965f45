// Helpers of the campaign tests: the API calls with a seeded bot's key, and audiences as CSV streams.
import { Readable } from 'node:stream';
import type { CampaignAudienceView, CampaignProgressView, CampaignView } from '@platform/contracts';
import type { SeededBot } from '@platform/testing';
import { until } from '@platform/testing';
import { type StackEnv, campaignStateReport } from './campaign-state-report.js';

export interface Answer<T> {
  status: number;
  body: T;
}

/** One API call of the campaign routes with the seed's API key. */
export async function campaignCall<T = Record<string, unknown>>(url: string, seed: SeededBot, method: string, path: string, body?: unknown, contentType?: string): Promise<Answer<T>> {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: { authorization: `Bearer ${seed.apiKey}` } };
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = contentType ?? 'application/json';
    init.body = contentType ? (body as BodyInit) : JSON.stringify(body);
    if (body instanceof ReadableStream) init.duplex = 'half';
  }
  const res = await fetch(`${url}/v1/bots/${seed.botId}/campaigns${path}`, init);
  return { status: res.status, body: (await res.json()) as T };
}

/** The mapping of a 3-card template whose columns are number, tz, img. */
export const MAPPING = {
  number: 'number',
  timeZone: 'tz',
  cards: [{ mediaLink: 'img' }, { mediaLink: { value: 'https://cdn.example.com/b.jpg' } }, { mediaLink: { value: 'https://cdn.example.com/c.jpg' } }],
};

/** The n-th test number (distinct for distinct n, `prefix` keeps tests apart). */
export const number = (prefix: number, n: number) => `+${prefix}${String(n).padStart(7, '0')}`;

/** A draft campaign of the seed's template; throws unless 201. */
export async function createCampaign(url: string, seed: SeededBot, extra: Record<string, unknown> = {}): Promise<CampaignView> {
  const res = await campaignCall<CampaignView>(url, seed, 'POST', '', { name: 'winter sale', templateId: seed.templateId, sender: `+${seed.senderNumber}`, mapping: MAPPING, ...extra });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Gives the campaign `rows` as a list audience; throws unless 200. */
export async function listAudience(url: string, seed: SeededBot, id: string, rows: Array<Record<string, string>>): Promise<CampaignAudienceView> {
  const res = await campaignCall<CampaignAudienceView>(url, seed, 'PUT', `/${id}/audience`, { rows });
  if (res.status !== 200) throw new Error(`audience answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A CSV of `count` rows (header number,tz,img) produced lazily, as a web stream; `line(i)` may replace a row; `failAtEnd`: the stream fails instead of ending. */
export function csvStream(count: number, line: (i: number) => string | undefined = () => undefined, chunkRows = 500, failAtEnd?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  const node = new Readable({
    read() {
      if (i === 0) this.push('number,tz,img\n');
      if (i >= count) return void (failAtEnd ? setTimeout(() => this.destroy(failAtEnd), 200) : this.push(null));
      let chunk = '';
      for (const end = Math.min(i + chunkRows, count); i < end; i++) chunk += `${line(i) ?? `${number(91, i)},Asia/Kolkata,https://cdn.example.com/${i}.jpg`}\n`;
      this.push(chunk);
    },
  });
  return Readable.toWeb(node) as ReadableStream<Uint8Array>;
}

export function progress(url: string, seed: SeededBot, id: string): Promise<CampaignProgressView> {
  return campaignCall<CampaignProgressView>(url, seed, 'GET', `/${id}/progress`).then((r) => r.body);
}

/**
 * Waits until the campaign is completed and every admitted message is final (sent or failed); the progress
 * then. Given the stack's env, a timeout's error carries the campaign's state (campaign-state-report.ts):
 * what was left to hold it back.
 */
export async function untilDrained(url: string, seed: SeededBot, id: string, timeoutMs = 30_000, env?: StackEnv): Promise<CampaignProgressView> {
  let last: CampaignProgressView | undefined;
  try {
    return await until(
      async () => {
        const p = (last = await progress(url, seed, id));
        return p.status === 'completed' && p.funnel.sent + p.funnel.failed === p.funnel.queued ? p : undefined;
      },
      timeoutMs,
      `campaign ${id} drained`,
    );
  } catch (err) {
    if (!env) throw err;
    const report = await campaignStateReport(env, id);
    (err as Error).message += `\nlast progress: ${JSON.stringify(last)}\n${report}`;
    throw err;
  }
}
