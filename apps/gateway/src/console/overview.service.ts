import { Injectable } from '@nestjs/common';
import { OVERVIEW_DEFAULT_DAYS, OVERVIEW_MAX_DAYS, type OverviewDay, type OverviewFunnel, type OverviewJourney, type OverviewResponse, type OverviewStatusCounts } from '@platform/contracts';
import { BotDefinitionRepository, OverviewRepository, type CarouselDayRow, type DayRange } from '@platform/database';
import { InvalidOverviewRangeError } from './invalid-overview-range.error.js';

const DAY_MS = 86_400_000;
const zero = (): OverviewStatusCounts => ({ pending: 0, sent: 0, delivered: 0, read: 0, failed: 0 });
const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

/** A YYYY-MM-DD string as a UTC midnight, or null when it is no calendar day (2026-02-30). */
function parseDay(value: string): number | null {
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value ? null : t;
}

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The console's home: a bot's messages, conversations and journeys over a range of UTC days. */
@Injectable()
export class OverviewService {
  constructor(
    private readonly repo: OverviewRepository,
    private readonly definitions: BotDefinitionRepository,
  ) {}

  /** The range asked for, checked: both ends included, at most OVERVIEW_MAX_DAYS; the last 30 days by default. */
  range(query: { from?: string; to?: string }): DayRange {
    const to = query.to !== undefined ? parseDay(query.to) : Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
    if (to === null) throw new InvalidOverviewRangeError(`to must be a calendar day as YYYY-MM-DD (got ${query.to})`);
    const from = query.from !== undefined ? parseDay(query.from) : to - (OVERVIEW_DEFAULT_DAYS - 1) * DAY_MS;
    if (from === null) throw new InvalidOverviewRangeError(`from must be a calendar day as YYYY-MM-DD (got ${query.from})`);
    if (from > to) throw new InvalidOverviewRangeError(`from (${dayOf(from)}) must not be after to (${dayOf(to)})`);
    const days = (to - from) / DAY_MS + 1;
    if (days > OVERVIEW_MAX_DAYS) throw new InvalidOverviewRangeError(`the range is ${days} days; at most ${OVERVIEW_MAX_DAYS} days may be asked for at once`);
    return { from: dayOf(from), to: dayOf(to) };
  }

  async overview(botId: string, query: { from?: string; to?: string }): Promise<OverviewResponse> {
    const range = this.range(query);
    // Both recounts first (each under its own per-bot lock), then the four rollup reads at once.
    await Promise.all([this.repo.refresh(botId, range), this.repo.refreshParts(botId, range)]);
    const [carousels, replies, channels, nodes, senderNumbers, gotos] = await Promise.all([
      this.repo.carouselDays(botId, range),
      this.repo.replyDays(botId, range),
      this.repo.conversationsPerChannel(botId, range),
      this.repo.journeyNodes(botId, range),
      this.repo.liveSenders(botId),
      this.gotoTargets(botId),
    ]);

    const days = new Map<string, OverviewDay>();
    for (let t = Date.parse(`${range.from}T00:00:00Z`); t <= Date.parse(`${range.to}T00:00:00Z`); t += DAY_MS) {
      days.set(dayOf(t), { day: dayOf(t), carousels: zero(), replies: zero() });
    }
    const totals = { carousels: { ...zero(), accepted: 0 }, replies: zero() };
    const templates = new Map<string, OverviewResponse['templates'][number]>();
    const senders = new Map<string, OverviewResponse['senders'][number]>();
    for (const row of carousels) {
      add(days.get(row.day)!.carousels, row);
      add(totals.carousels, row);
      totals.carousels.accepted += row.total;
      const t = templates.get(row.templateId) ?? { templateId: row.templateId, name: row.templateName, language: row.language, ...emptyFunnel() };
      templates.set(row.templateId, addFunnel(t, row));
      const s = senders.get(row.senderId) ?? { senderId: row.senderId, number: row.senderNumber, ...emptyFunnel() };
      senders.set(row.senderId, addFunnel(s, row));
    }
    for (const row of replies) {
      add(days.get(row.day)!.replies, row);
      add(totals.replies, row);
    }

    // A journey finished where a conversation's last step of it was an end node, or a goto node that went on
    // in another journey: a journey that always hands on (a greeting before the menu) completes, not 0%.
    const journeys = new Map<string, OverviewJourney>();
    const handedOnTo = new Map<string, Map<string, number>>();
    for (const row of nodes) {
      const j = journeys.get(row.journey) ?? { journey: row.journey, conversations: 0, completed: 0, completionRate: 0, handedOn: 0, handedOnTo: [], waiting: 0, errors: 0, steps: 0, nodes: [] };
      const handedOn = row.kind === 'goto' ? row.stopped - row.waiting : 0;
      const handsOnTo = row.kind === 'goto' ? (gotos.get(`${row.journey}\u0000${row.node}`) ?? null) : null;
      j.conversations += row.stopped;
      j.completed += row.ended + handedOn;
      j.handedOn += handedOn;
      j.waiting += row.waiting;
      j.errors += row.errors;
      j.steps += row.steps;
      if (handsOnTo && handedOn > 0) {
        const to = handedOnTo.get(row.journey) ?? new Map<string, number>();
        handedOnTo.set(row.journey, to.set(handsOnTo, (to.get(handsOnTo) ?? 0) + handedOn));
      }
      const { journey: _journey, ...node } = row;
      j.nodes.push({ ...node, handedOn, handsOnTo, errorRate: ratio(row.errors, row.steps) });
      journeys.set(row.journey, j);
    }
    for (const j of journeys.values()) {
      j.completionRate = ratio(j.completed, j.conversations);
      j.handedOnTo = [...(handedOnTo.get(j.journey) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([to]) => to);
    }

    const byAccepted = (a: OverviewFunnel, b: OverviewFunnel) => b.accepted - a.accepted;
    return {
      ...range,
      days: [...days.values()],
      totals,
      conversations: (['whatsapp', 'web'] as const).map((channel) => ({ channel, conversations: channels.find((c) => c.channel === channel)?.conversations ?? 0 })),
      templates: [...templates.values()].sort(byAccepted),
      senders: [...senders.values()].sort(byAccepted),
      senderNumbers,
      journeys: [...journeys.values()],
    };
  }

  /** The published version's goto nodes: `<journey>\0<node>` to the journey each continues in. Empty when nothing is published. */
  private async gotoTargets(botId: string): Promise<Map<string, string>> {
    const version = await this.definitions.publishedVersion(botId);
    const found = version === null ? null : await this.definitions.findVersion(botId, version);
    const definition = found?.definition as { journeys?: Array<{ slug?: unknown; nodes?: Array<{ id?: unknown; kind?: unknown; journey?: unknown }> }> } | null | undefined;
    const targets = new Map<string, string>();
    for (const j of definition?.journeys ?? [])
      for (const n of j.nodes ?? []) if (n.kind === 'goto' && typeof n.id === 'string' && typeof n.journey === 'string') targets.set(`${String(j.slug)}\u0000${n.id}`, n.journey);
    return targets;
  }
}

function add(into: OverviewStatusCounts, row: OverviewStatusCounts): void {
  into.pending += row.pending;
  into.sent += row.sent;
  into.delivered += row.delivered;
  into.read += row.read;
  into.failed += row.failed;
}

const emptyFunnel = (): OverviewFunnel => ({ accepted: 0, sent: 0, delivered: 0, read: 0, failed: 0, pending: 0 });

/** A read message was delivered and sent before: each stage counts the messages that got at least that far. */
function addFunnel<T extends OverviewFunnel>(f: T, row: CarouselDayRow): T {
  f.accepted += row.total;
  f.sent += row.sent + row.delivered + row.read;
  f.delivered += row.delivered + row.read;
  f.read += row.read;
  f.failed += row.failed;
  f.pending += row.pending;
  return f;
}
