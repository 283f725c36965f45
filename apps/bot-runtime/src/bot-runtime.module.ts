import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, LoadedEnv } from '@platform/config';
import { CallbackQueueNames, ConversationQueueNames } from '@platform/contracts';
import { ReplyDelivery, SdkEventStore } from '@platform/conversations';
import { CryptoModule } from '@platform/crypto';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { QueueModule } from '@platform/queue';
import { BotHttpCaller } from './ports/bot-http-caller.js';
import { BotSecrets } from './ports/bot-secrets.js';
import { FunctionSandbox } from './ports/function-sandbox.js';
import { BotMetrics } from './turn/bot-metrics.js';
import { BotTurnService, FUNCTION_RUNNER, HTTP_CALLER } from './turn/bot-turn.service.js';
import { BotTurnWorker } from './turn/bot-turn.worker.js';
import { HandoffEvents } from './turn/handoff-events.js';
import { OutboxHandover } from './turn/outbox-handover.js';
import { TurnEngine } from './turn/turn-engine.js';
import { TurnSlots } from './turn/turn-slots.js';

@Module({})
export class BotRuntimeModule {
  /** `env`: the runtime's env classes (BOT_RUNTIME_ENV), loaded once by createBotRuntime. */
  static forRoot(env: LoadedEnv): DynamicModule {
    return {
      module: BotRuntimeModule,
      imports: [ConfigModule.forEnv(env), DatabaseModule, CryptoModule, QueueModule.forProducers([ConversationQueueNames.conversationReply, CallbackQueueNames.callback]), HealthModule],
      providers: [
        SdkEventStore,
        ReplyDelivery,
        OutboxHandover,
        HandoffEvents,
        TurnEngine,
        TurnSlots,
        BotMetrics,
        BotSecrets,
        BotHttpCaller,
        { provide: HTTP_CALLER, useExisting: BotHttpCaller },
        FunctionSandbox,
        { provide: FUNCTION_RUNNER, useExisting: FunctionSandbox },
        BotTurnService,
        BotTurnWorker,
      ],
    };
  }
}
