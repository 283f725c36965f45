import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '@platform/common';
import { ConfigModule, LoadedEnv } from '@platform/config';
import { CryptoModule } from '@platform/crypto';
import { CarouselCatalogModule, DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { CallbackQueueNames, CampaignQueueNames, QueueNames } from '@platform/contracts';
import { MessageLifecyclePublisher, QueueModule } from '@platform/queue';
import { CarouselDispatchHandler } from './carousel-dispatch/carousel-dispatch.handler.js';
import { CarouselDispatchWorker } from './carousel-dispatch/carousel-dispatch.worker.js';
import { StalledMessageSettler } from './carousel-dispatch/stalled-message.settler.js';
import { CallbackSender } from './callbacks/callback-sender.js';
import { CallbackWorker } from './callbacks/callback.worker.js';
import { EndpointHealth } from './callbacks/endpoint-health.js';
import { legacyQueueDrains } from './callbacks/legacy-queue-drain.js';
import { MessageDeliveryOrder } from './callbacks/message-delivery-order.js';
import { ConversationReplyHandler } from './conversation-reply/conversation-reply.handler.js';
import { ConversationReplyWorker } from './conversation-reply/conversation-reply.worker.js';
import { ReadReceiptHandler } from './conversation-reply/read-receipt.handler.js';
import { SenderPacer, WhatsAppCloudClient } from '@platform/whatsapp';
import { CampaignStates } from './campaigns/campaign-states.js';
import { CampaignPlanner } from './campaigns/campaign-planner.js';
import { CampaignRecovery } from './campaigns/campaign-recovery.js';
import { CampaignPlannerWorker } from './campaigns/campaign-planner.worker.js';

@Module({})
export class ChannelWorkerModule {
  /**
   * `env`: the worker's env classes (CHANNEL_WORKER_ENV), loaded once by createChannelWorker; `clock`:
   * the time messages' validity is judged by (a test's moved-on clock; by default the system's).
   */
  static forRoot(env: LoadedEnv, clock: Clock = new Clock()): DynamicModule {
    return {
      module: ChannelWorkerModule,
      imports: [
        ConfigModule.forEnv(env),
        DatabaseModule,
        CarouselCatalogModule,
        CryptoModule,
        QueueModule.forProducers([CallbackQueueNames.callback, QueueNames.carouselDispatch, CampaignQueueNames.campaigns]),
        HealthModule,
      ],
      providers: [
        { provide: Clock, useValue: clock },
        WhatsAppCloudClient,
        SenderPacer,
        CarouselDispatchHandler,
        StalledMessageSettler,
        CarouselDispatchWorker,
        ConversationReplyHandler,
        ReadReceiptHandler,
        ConversationReplyWorker,
        MessageLifecyclePublisher,
        EndpointHealth,
        MessageDeliveryOrder,
        CallbackSender,
        CallbackWorker,
        ...legacyQueueDrains,
        CampaignStates,
        CampaignPlanner,
        CampaignPlannerWorker,
        CampaignRecovery,
      ],
    };
  }
}
