import { Injectable, Logger } from '@nestjs/common';
import { ConversationRepository } from '@platform/database';
import { ConversationService } from '../conversations/conversation.service.js';
import type { InboundWhatsAppMessage } from '@platform/whatsapp';

/** Records the messages users sent in a WhatsApp webhook notification and queues each for its bot. */
@Injectable()
export class InboundMessagesService {
  private readonly logger = new Logger('WhatsAppWebhook');

  constructor(
    private readonly conversations: ConversationService,
    private readonly repository: ConversationRepository,
  ) {}

  /** Resolves once every message is recorded and its webhook call queued (in the notification's order). */
  async record(messages: readonly InboundWhatsAppMessage[]): Promise<number> {
    let recorded = 0;
    for (const m of messages) {
      const [sender] = await this.repository.findSendersByPhoneNumberId(m.phoneNumberId);
      if (!sender) {
        this.logger.warn(`message ${m.wamid} to phone-number id ${m.phoneNumberId} ignored: no bot has that sender`);
        continue;
      }
      const { created } = await this.conversations.receive({
        botId: sender.botId,
        channel: 'whatsapp',
        userId: m.from,
        senderId: sender.id,
        type: m.type,
        content: m.content as object,
        providerMessageId: m.wamid,
        at: m.at,
      });
      if (created) recorded++;
    }
    return recorded;
  }
}
