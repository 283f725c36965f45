import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, LoadedEnv } from '@platform/config';
import { PushQueueNames } from '@platform/contracts';
import { CryptoModule } from '@platform/crypto';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { QueueModule } from '@platform/queue';
import { PushConfigService } from './service-accounts/push-config.service.js';
import { DeviceService } from './devices/device.service.js';
import { AccessTokenProvider } from './fcm/access-token.provider.js';
import { FcmPacer } from './fcm/fcm-pacer.js';
import { FcmSender } from './fcm/fcm-sender.js';
import { GoogleTokenClient } from './fcm/google-token.client.js';
import { Http2Pool } from './fcm/http2-pool.js';
import { BatchProgressStore } from './notifications/batch-progress.store.js';
import { BatchHandler } from './notifications/batch.handler.js';
import { FanoutWorker } from './notifications/fanout.worker.js';
import { NotificationService } from './notifications/notification.service.js';
import { PlanHandler } from './notifications/plan.handler.js';
import { StalledFanoutSettler } from './notifications/stalled-fanout.settler.js';
import { PushRpcController } from './rpc/push-rpc.controller.js';

@Module({})
export class PushServiceModule {
  /** `env`: the push service's env classes (PUSH_SERVICE_ENV), loaded once by createPushService. */
  static forRoot(env: LoadedEnv): DynamicModule {
    return {
      module: PushServiceModule,
      imports: [ConfigModule.forEnv(env), DatabaseModule, CryptoModule, QueueModule.forProducers([PushQueueNames.fanout]), HealthModule],
      controllers: [PushRpcController],
      providers: [
        PushConfigService,
        DeviceService,
        NotificationService,
        GoogleTokenClient,
        AccessTokenProvider,
        Http2Pool,
        FcmPacer,
        FcmSender,
        BatchProgressStore,
        PlanHandler,
        BatchHandler,
        StalledFanoutSettler,
        FanoutWorker,
      ],
    };
  }
}
