import { BadGatewayException, BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { CreateSenderDto, SenderView, TemplateCardSpec, TemplateSyncView, TemplateView, UpdateSenderDto, isUuid } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSender, ChannelSenderRepository, Template, TemplateRepository } from '@platform/database';
import { GraphApiError, NoBusinessAccountError, TemplateSyncService } from '@platform/whatsapp';

@Injectable()
export class WhatsAppAdminService {
  constructor(
    private readonly senderRepo: ChannelSenderRepository,
    private readonly templateRepo: TemplateRepository,
    private readonly box: SecretBox,
    private readonly sync: TemplateSyncService,
  ) {}

  async senders(botId: string): Promise<SenderView[]> {
    return (await this.senderRepo.listByBot(botId)).map(senderView);
  }

  async addSender(botId: string, dto: CreateSenderDto): Promise<SenderView> {
    const number = dto.number.replace(/^\+/, '');
    if (await this.senderRepo.findByNumber(botId, 'whatsapp', number)) throw new ConflictException(`number +${number} is already a sender of this bot`);
    const row = await this.senderRepo.create({
      botId,
      channel: 'whatsapp',
      number,
      phoneNumberId: dto.phoneNumberId,
      accessTokenEncrypted: this.box.encrypt(dto.accessToken),
      wabaId: dto.wabaId ?? null,
      throughput: dto.throughput,
    });
    return senderView(row);
  }

  async updateSender(botId: string, senderId: string, dto: UpdateSenderDto): Promise<SenderView> {
    const row = isUuid(senderId)
      ? await this.senderRepo.update(botId, senderId, {
          ...(dto.phoneNumberId !== undefined ? { phoneNumberId: dto.phoneNumberId } : {}),
          ...(dto.accessToken !== undefined ? { accessTokenEncrypted: this.box.encrypt(dto.accessToken) } : {}),
          ...(dto.wabaId !== undefined ? { wabaId: dto.wabaId } : {}),
          ...(dto.throughput !== undefined ? { throughput: dto.throughput } : {}),
        })
      : null;
    if (!row) throw new NotFoundException(`No sender ${senderId} for this bot`);
    return senderView(row);
  }

  async templates(botId: string): Promise<TemplateView[]> {
    return (await this.templateRepo.listByBot(botId)).map(templateView);
  }

  /** Reads the bot's templates from its senders' WhatsApp Business Accounts; 400 when none is set, 502 when Meta refuses. */
  async syncTemplates(botId: string): Promise<TemplateSyncView> {
    try {
      return await this.sync.syncBot(botId);
    } catch (err) {
      if (err instanceof NoBusinessAccountError) throw new BadRequestException('no WhatsApp sender of this bot has a wabaId (set it with PATCH .../whatsapp/senders/<id>)');
      if (err instanceof GraphApiError) throw new BadGatewayException(err.message);
      throw err;
    }
  }
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
