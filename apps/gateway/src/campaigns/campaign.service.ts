import { randomUUID } from 'node:crypto';
import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import {
  CampaignAudienceView,
  CampaignPlanJob,
  CampaignPreviewRow,
  CampaignProgressView,
  CampaignStatusName,
  CampaignView,
  CreateCampaignDto,
  MessagingLimitCheckView,
  QuietHours,
  TemplateCardSpec,
  campaignPlanJobId,
  isUuid,
} from '@platform/contracts';
import { CampaignRepository, CampaignRow, CarouselCatalog, PreviewRecipient } from '@platform/database';
import { CampaignPlanQueue } from '@platform/queue';
import { MessagingLimitCheck } from './messaging-limit-check.js';
import { mappingProblem } from './row-mapper.js';
import { TimeZones } from './time-zones.js';

const HH_MM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

/** Campaigns of a bot: created as drafts, given an audience, then started, paused, resumed or cancelled. */
@Injectable()
export class CampaignService {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly catalog: CarouselCatalog,
    private readonly planners: CampaignPlanQueue,
    private readonly timeZones: TimeZones,
    private readonly messagingLimit: MessagingLimitCheck,
  ) {}

  async create(botId: string, dto: CreateCampaignDto): Promise<CampaignView> {
    const template = await this.catalog.templateOfBot(botId, dto.templateId);
    if (!template) throw new BadRequestException('templateId is not a carousel template of this bot');
    if (template.status !== 'APPROVED') throw new BadRequestException(`templateId names template ${template.providerName}, whose status at Meta is ${template.status}, not APPROVED`);
    const sender = await this.catalog.senderByNumber(botId, template.channel, dto.sender.replace(/^\+/, ''));
    if (!sender) throw new BadRequestException(`sender is not a ${template.channel} sender of this bot`);
    const problem = mappingProblem(dto.mapping, { bodyParameterCount: template.bodyParameterCount, cards: template.cards as TemplateCardSpec[] | null, cardCount: template.cardCount });
    if (problem) throw new BadRequestException(problem);
    const schedule = dto.schedule ?? {};
    const startAt = schedule.startAt === undefined ? null : new Date(schedule.startAt);
    if (startAt && (typeof schedule.startAt !== 'string' || Number.isNaN(startAt.getTime()))) throw new BadRequestException('schedule.startAt must be an ISO 8601 date-time');
    const timeZone = schedule.timeZone ?? 'UTC';
    if (typeof timeZone !== 'string' || !(await this.timeZones.checker())(timeZone)) throw new BadRequestException('schedule.timeZone must be an IANA time zone (e.g. Europe/Berlin)');
    const quiet = schedule.quietHours === undefined ? null : quietMinutes(schedule.quietHours);
    const row = await this.campaigns.create({
      botId,
      name: dto.name.trim(),
      templateId: template.id,
      senderId: sender.id,
      mapping: dto.mapping,
      startAt,
      timeZone,
      quietFromMinute: quiet?.from ?? null,
      quietToMinute: quiet?.to ?? null,
      frequencyCap: dto.frequencyCap ?? null,
      transactional: dto.transactional ?? false,
      sendShare: dto.sendShare ?? 0.8,
      validitySeconds: dto.validitySeconds ?? null,
    });
    return campaignView(row);
  }

  async get(botId: string, id: string): Promise<CampaignView> {
    return campaignView(await this.found(botId, id));
  }

  async list(botId: string): Promise<CampaignView[]> {
    return (await this.campaigns.list(botId)).map(campaignView);
  }

  /**
   * Starts a draft whose audience is complete: scheduled until its start time, then running. Its sender's
   * messaging limit is read from Meta and checked first: over it, 409 with the check (`details.messagingLimit`) unless acknowledged.
   */
  async start(botId: string, id: string, skipInvalid: boolean, acknowledgeTierLimit = false): Promise<CampaignView & { messagingLimit?: MessagingLimitCheckView }> {
    const c = await this.found(botId, id);
    if (c.status !== 'draft') throw new ConflictException(`campaign is ${c.status}; only a draft can be started`);
    if (!c.audienceReady) throw new ConflictException('campaign has no complete audience: upload one (an interrupted upload does not count)');
    if (c.rowsTotal - c.rowsInvalid === 0) throw new ConflictException('campaign audience has no valid recipient');
    if (c.rowsInvalid > 0 && !skipInvalid) {
      throw new ConflictException(`campaign audience has ${c.rowsInvalid} invalid ${c.rowsInvalid === 1 ? 'row' : 'rows'} (see the preview); start with skipInvalid: true to send to the others`);
    }
    const limit = await this.messagingLimit.check(c, true);
    if (limit.exceeded && !acknowledgeTierLimit) throw new ConflictException({ message: limit.warning, details: { messagingLimit: limit } });
    const due = !c.startAt || c.startAt.getTime() <= Date.now();
    const plannerId = randomUUID();
    const row = await this.campaigns.transition(botId, id, ['draft'], due ? 'running' : 'scheduled', plannerId);
    if (!row) throw new ConflictException('campaign changed meanwhile; read it again');
    await this.wakePlanner(id, plannerId);
    return { ...campaignView(row), ...(limit.exceeded && { messagingLimit: limit }) };
  }

  async pause(botId: string, id: string): Promise<CampaignView> {
    return this.move(botId, id, ['running', 'scheduled'], 'paused');
  }

  async resume(botId: string, id: string): Promise<CampaignView> {
    const c = await this.found(botId, id);
    const due = !c.startAt || c.startAt.getTime() <= Date.now();
    const plannerId = randomUUID();
    const row = await this.move(botId, id, ['paused'], due ? 'running' : 'scheduled', plannerId);
    await this.wakePlanner(id, plannerId);
    return row;
  }

  async cancel(botId: string, id: string): Promise<CampaignView> {
    const row = await this.move(botId, id, ['draft', 'scheduled', 'running', 'paused'], 'cancelled');
    await this.campaigns.cancelPending(id);
    return row;
  }

  /** The first rows of the audience as they will be sent, the first rows with errors, and (a draft) the messaging limit check. */
  async preview(botId: string, id: string): Promise<Pick<CampaignAudienceView, 'preview' | 'errors'> & { messagingLimit?: MessagingLimitCheckView }> {
    const c = await this.found(botId, id);
    const { first, errors } = await this.campaigns.preview(id, 20);
    const shown = (r: PreviewRecipient): CampaignPreviewRow =>
      r.error === null
        ? { row: r.rowNo, recipient: r.recipient, timeZone: r.timeZone, values: r.values ?? undefined }
        : { row: r.rowNo, recipient: r.recipient.startsWith('row:') ? null : r.recipient, error: r.error };
    // A draft's check (with the sender's stored tier); a started campaign's was made at its start.
    const messagingLimit = c.status === 'draft' && c.audienceReady ? await this.messagingLimit.check(c, false) : undefined;
    return { preview: first.map(shown), errors: errors.map(shown), ...(messagingLimit && { messagingLimit }) };
  }

  async progress(botId: string, id: string): Promise<CampaignProgressView> {
    const c = await this.found(botId, id);
    return { status: c.status, ...(await this.campaigns.progress(id)) };
  }

  async found(botId: string, id: string): Promise<CampaignRow> {
    const c = isUuid(id) ? await this.campaigns.find(botId, id) : null;
    if (!c) throw new NotFoundException('No such campaign for this bot');
    return c;
  }

  private async move(botId: string, id: string, from: CampaignStatusName[], to: CampaignStatusName, plannerId?: string): Promise<CampaignView> {
    const c = await this.found(botId, id);
    const row = await this.campaigns.transition(botId, id, from, to, plannerId);
    if (!row) throw new ConflictException(`campaign is ${c.status}; it cannot become ${to} (only from ${from.join(', ')})`);
    return campaignView(row);
  }

  /** The planner job of this run of the campaign (a planner of an earlier run sees the new id and ends). */
  private async wakePlanner(campaignId: string, plannerId: string): Promise<void> {
    const data: CampaignPlanJob = { campaignId, plannerId };
    await this.planners.add('plan', data, { jobId: campaignPlanJobId(campaignId, plannerId) });
  }
}

function quietMinutes(q: QuietHours): { from: number; to: number } {
  const from = typeof q?.from === 'string' ? HH_MM.exec(q.from) : null;
  const to = typeof q?.to === 'string' ? HH_MM.exec(q.to) : null;
  if (!from || !to) throw new BadRequestException('schedule.quietHours must be { "from": "HH:MM", "to": "HH:MM" } (24 h, recipient local time)');
  const minutes = (m: RegExpExecArray) => Number(m[1]) * 60 + Number(m[2]);
  if (minutes(from) === minutes(to)) throw new BadRequestException('schedule.quietHours.from and .to must differ');
  return { from: minutes(from), to: minutes(to) };
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export function campaignView(c: CampaignRow): CampaignView {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    templateId: c.templateId,
    senderId: c.senderId,
    mapping: c.mapping,
    schedule: {
      startAt: c.startAt?.toISOString() ?? null,
      timeZone: c.timeZone,
      quietHours: c.quietFromMinute === null || c.quietToMinute === null ? null : { from: hhmm(c.quietFromMinute), to: hhmm(c.quietToMinute) },
    },
    frequencyCap: c.frequencyCap,
    transactional: c.transactional,
    sendShare: c.sendShare,
    validitySeconds: c.validitySeconds,
    audience: { source: c.audienceSource, ready: c.audienceReady, rows: c.rowsTotal, invalid: c.rowsInvalid, rowsRead: c.rowsRead, duplicates: c.rowsDuplicate },
    createdAt: c.createdAt.toISOString(),
    startedAt: c.startedAt?.toISOString() ?? null,
    finishedAt: c.finishedAt?.toISOString() ?? null,
  };
}
