import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, HttpEnv, LoadedEnv } from '@platform/config';
import { BotQueueNames, CallbackQueueNames, CampaignQueueNames, ConversationQueueNames, QueueNames } from '@platform/contracts';
import { CryptoModule } from '@platform/crypto';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { QueueModule } from '@platform/queue';
import { CarouselModule } from './carousel/carousel.module.js';
import { MessagesModule } from './messages/messages.module.js';
import { MessageStreamModule } from './message-stream/message-stream.module.js';
import { AccountModule } from './account/account.module.js';
import { MembersModule } from './members/members.module.js';
import { WhatsAppAdminModule } from './whatsapp-admin/whatsapp-admin.module.js';
import { AdminAuthModule } from './auth/admin-auth.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { TriggerQuotaModule } from './trigger-quota/trigger-quota.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { OAuthClientsModule } from './oauth-clients/oauth-clients.module.js';
import { PushModule } from './push/push.module.js';
import { SdkSessionsModule } from './sdk-sessions/sdk-sessions.module.js';
import { BotEventsModule } from './bot-events/bot-events.module.js';
import { CallbacksModule } from './callbacks/callbacks.module.js';
import { WhatsAppWebhooksModule } from './whatsapp-webhooks/whatsapp-webhooks.module.js';
import { ConversationsModule } from './conversations/conversations.module.js';
import { WebChatPageModule } from './web-chat-page/web-chat-page.module.js';
import { BotsModule } from './bots/bots.module.js';
import { InboxModule } from './inbox/inbox.module.js';
import { OverviewModule } from './console/overview.module.js';
import { OnboardingModule } from './console/onboarding.module.js';
import { CampaignsModule } from './campaigns/campaigns.module.js';
import { AdministrationModule } from './administration/administration.module.js';

@Module({})
export class GatewayModule {
  /** `env`: the gateway's env classes (GATEWAY_ENV), loaded once by createGateway. */
  static forRoot(env: LoadedEnv): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forEnv(env),
        DatabaseModule,
        CryptoModule,
        QueueModule.forProducers([QueueNames.carouselDispatch, CallbackQueueNames.callback, ConversationQueueNames.conversationReply, BotQueueNames.botTurn, CampaignQueueNames.campaigns]),
        HealthModule.onPublicPort(env.get(HttpEnv).METRICS_TOKEN),
        CarouselModule,
        MessagesModule,
        MessageStreamModule,
        AdminAuthModule,
        AccountModule,
        MembersModule,
        WhatsAppAdminModule,
        ApiKeysModule,
        TriggerQuotaModule,
        OAuthModule,
        OAuthClientsModule,
        PushModule,
        SdkSessionsModule,
        BotEventsModule,
        CallbacksModule,
        WhatsAppWebhooksModule,
        ConversationsModule,
        WebChatPageModule,
        BotsModule,
        InboxModule,
        OverviewModule,
        OnboardingModule,
        CampaignsModule,
        AdministrationModule,
      ],
    };
  }
}
