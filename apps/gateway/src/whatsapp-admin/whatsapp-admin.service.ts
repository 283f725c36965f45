import { BadGatewayException, BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { CreateSenderDto, SenderView, TemplateCardSpec, TemplateSyncView, TemplateView, UpdateSenderDto, isUuid } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSender, ChannelSenderRepository, Template, TemplateRepository } from '@platform/database';
import { GraphApiError, GraphPhoneNumberClient, MessagingLimitReader, NoBusinessAccountError, PhoneNumberInfo, TemplateSyncService } from '@platform/whatsapp';

@Injectable()
export class WhatsAppAdminService {
  constructor(
    private readonly senderRepo: ChannelSenderRepository,
    private readonly templateRepo: TemplateRepository,
    private readonly box: SecretBox,
    private readonly sync: TemplateSyncService,
    private readonly graph: GraphPhoneNumberClient,
    private readonly limits: MessagingLimitReader,
  ) {}

  /** The bot's live senders, each with its failures of the last 24 hours and its newest error. */
  async senders(botId: string): Promise<SenderView[]> {
    const [rows, failures] = await Promise.all([this.senderRepo.listByBot(botId), this.senderRepo.failureStats(botId, new Date(Date.now() - FAILURE_WINDOW_MS))]);
    return rows.map((s) => {
      const f = failures.get(s.id);
      return {
        ...senderView(s),
        recentFailures: f?.failures ?? 0,
        lastError: f?.lastErrorAt ? { code: f.lastErrorCode, text: f.lastErrorText, at: f.lastErrorAt.toISOString() } : null,
      };
    });
  }

  async addSender(botId: string, dto: CreateSenderDto): Promise<SenderView> {
    const number = dto.number.replace(/^\+/, '');
    assertTokenShape(dto.accessToken);
    if (await this.senderRepo.findByNumber(botId, 'whatsapp', number)) throw new ConflictException(`number +${number} is already a sender of this bot`);
    const info = await this.checkLive(dto.phoneNumberId, dto.accessToken);
    const created = await this.senderRepo.create({
      botId,
      channel: 'whatsapp',
      number,
      phoneNumberId: dto.phoneNumberId,
      accessTokenEncrypted: this.box.encrypt(dto.accessToken),
      wabaId: dto.wabaId ?? null,
      throughput: dto.throughput,
    });
    // The token check's answer carries the number's messaging limit tier (docs/campaigns.md).
    await this.limits.store(created.id, info);
    return senderView((await this.senderRepo.findById(created.id)) ?? created);
  }

  async updateSender(botId: string, senderId: string, dto: UpdateSenderDto): Promise<SenderView> {
    let info: PhoneNumberInfo | undefined;
    if (dto.accessToken !== undefined || dto.phoneNumberId !== undefined) {
      const current = isUuid(senderId) ? await this.senderRepo.findById(senderId) : null;
      if (!current || current.botId !== botId || current.deletedAt) throw new NotFoundException(`No sender ${senderId} for this bot`);
      if (dto.accessToken !== undefined) assertTokenShape(dto.accessToken);
      // A new id is checked with the token it will be used with, a new token with the id.
      info = await this.checkLive(dto.phoneNumberId ?? current.phoneNumberId, dto.accessToken ?? this.box.decrypt(current.accessTokenEncrypted));
    }
    const row = isUuid(senderId)
      ? await this.senderRepo.update(botId, senderId, {
          ...(dto.phoneNumberId !== undefined ? { phoneNumberId: dto.phoneNumberId } : {}),
          ...(dto.accessToken !== undefined ? { accessTokenEncrypted: this.box.encrypt(dto.accessToken) } : {}),
          ...(dto.wabaId !== undefined ? { wabaId: dto.wabaId } : {}),
          ...(dto.throughput !== undefined ? { throughput: dto.throughput } : {}),
        })
      : null;
    if (!row) throw new NotFoundException(`No sender ${senderId} for this bot`);
    if (info) await this.limits.store(row.id, info);
    return senderView(info ? ((await this.senderRepo.findById(row.id)) ?? row) : row);
  }

  /** Deletes the sender: not listed or used from now on; its messages stay in the log under its number. */
  async deleteSender(botId: string, senderId: string): Promise<void> {
    if (!isUuid(senderId) || !(await this.senderRepo.softDelete(botId, senderId, new Date()))) throw new NotFoundException(`No sender ${senderId} for this bot`);
  }

  /** Asks the Graph API about the number with the token: a token Meta refuses is refused here (400), not found out at the first send. */
  private async checkLive(phoneNumberId: string, accessToken: string): Promise<PhoneNumberInfo> {
    try {
      return await this.graph.check(phoneNumberId, accessToken);
    } catch (err) {
      if (!(err instanceof GraphApiError)) throw err;
      if (err.status === 0 || err.status >= 500) throw new BadGatewayException(`The access token could not be checked: ${err.message}. Nothing was saved; try again`);
      throw new BadRequestException(`accessToken was refused by the WhatsApp Cloud API for phone-number id ${phoneNumberId}: ${err.detail}`);
    }
  }

  async templates(botId: string): Promise<TemplateView[]> {
    return (await this.templateRepo.listByBot(botId)).map(templateView);
  }

  /** Reads the bot's templates from its senders' WhatsApp Business Accounts; 400 when none is set, 502 when Meta refuses. */
  async syncTemplates(botId: string): Promise<TemplateSyncView> {
    try {
      const summary = await this.sync.syncBot(botId);
      // Meta may have moved the numbers to another tier since they were saved.
      await this.limits.refreshBot(botId);
      return summary;
    } catch (err) {
      if (err instanceof NoBusinessAccountError) throw new BadRequestException('no WhatsApp sender of this bot has a wabaId (set it with PATCH .../whatsapp/senders/<id>)');
      if (err instanceof GraphApiError) throw new BadGatewayException(err.message);
      throw err;
    }
  }
}

const FAILURE_WINDOW_MS = 24 * 3600 * 1000;

/** A token pasted with a space or line break around or inside it is refused, naming the problem, before Meta is asked. */
function assertTokenShape(token: string): void {
  if (token !== token.trim()) throw new BadRequestException('accessToken has spaces or line breaks at its start or end; paste the token alone');
  if (/\s/.test(token)) throw new BadRequestException('accessToken contains spaces or line breaks; paste the token alone');
}

function senderView(s: ChannelSender): SenderView {
  return {
    id: s.id,
    channel: s.channel,
    number: `+${s.number}`,
    phoneNumberId: s.phoneNumberId,
    accessTokenSet: true,
    wabaId: s.wabaId,
    throughput: s.throughput,
    messagingLimitTier: s.messagingLimitTier,
    messagingLimitReadAt: s.messagingLimitReadAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
  };
}

function templateView(t: Template): TemplateView {
  return {
    id: t.id,
    channel: t.channel,
    name: t.providerName,
    language: t.language,
    category: t.category,
    cardCount: t.cardCount,
    cardHeaderFormat: t.cardHeaderFormat,
    status: t.status,
    source: t.providerTemplateId ? 'synced' : 'manual',
    bodyParameterCount: t.bodyParameterCount,
    cards: t.cards as TemplateCardSpec[] | null,
    updatedAt: t.updatedAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
  };
}
