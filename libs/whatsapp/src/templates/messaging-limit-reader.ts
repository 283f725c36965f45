import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { ChannelSender, ChannelSenderRepository } from '@platform/database';
import { GraphPhoneNumberClient, messagingLimitTierOf } from './graph-phone-number.client.js';

/** A sender's messaging limit tier: as Meta answered it now (`fresh`), or as last stored when Meta could not be asked. */
export interface SenderMessagingLimit {
  tier: string | null;
  readAt: Date | null;
  fresh: boolean;
  /** Why Meta could not be asked (the stored tier is given instead). */
  error?: string;
}

/** A read asked for on a start or a sync waits at most this long for Meta (the start then goes on with the stored tier). */
const READ_TIMEOUT_MS = 5000;

/**
 * Reads each WhatsApp sender's messaging limit tier from the Graph API (`GET /<phone-number-id>`) and keeps
 * it on the sender row: when a sender is saved (WhatsAppAdminService, from its token check), when its
 * bot's templates are synced, and on a campaign's start check.
 */
@Injectable()
export class MessagingLimitReader {
  private readonly logger = new Logger('MessagingLimitReader');

  constructor(
    private readonly senders: ChannelSenderRepository,
    private readonly graph: GraphPhoneNumberClient,
    private readonly secrets: SecretBox,
  ) {}

  /** Asks Meta for the sender's tier and stores it; on failure answers the stored one with the error. */
  async refresh(sender: ChannelSender): Promise<SenderMessagingLimit> {
    try {
      const info = await this.graph.check(sender.phoneNumberId, this.secrets.decrypt(sender.accessTokenEncrypted), READ_TIMEOUT_MS);
      const tier = messagingLimitTierOf(info);
      const readAt = new Date();
      await this.senders.setMessagingLimit(sender.id, tier, readAt);
      return { tier, readAt, fresh: true };
    } catch (err) {
      this.logger.warn(`sender +${sender.number}: messaging limit tier not read from the Graph API (${(err as Error).message}); using the stored one`);
      return { tier: sender.messagingLimitTier, readAt: sender.messagingLimitReadAt, fresh: false, error: (err as Error).message };
    }
  }

  /** Refreshes every WhatsApp sender of the bot (after a template sync); failures only logged. */
  async refreshBot(botId: string): Promise<void> {
    const senders = (await this.senders.listByBot(botId)).filter((s) => s.channel === 'whatsapp');
    await Promise.all(senders.map((s) => this.refresh(s)));
  }

  /** Stores the tier a token check answered (a sender saved). */
  async store(senderId: string, info: Parameters<typeof messagingLimitTierOf>[0]): Promise<void> {
    await this.senders.setMessagingLimit(senderId, messagingLimitTierOf(info), new Date());
  }
}
