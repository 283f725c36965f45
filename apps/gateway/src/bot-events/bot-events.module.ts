import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { SdkSessionsModule } from '../sdk-sessions/sdk-sessions.module.js';
import { BotEventsController } from './bot-events.controller.js';
import { BotEventsService } from './bot-events.service.js';
import { EventStreamRoute } from './event-stream.route.js';
import { SdkEventStore } from '@platform/conversations';
import { StreamHub } from './stream-hub.service.js';

@Module({
  imports: [AuthModule, SdkSessionsModule],
  controllers: [BotEventsController],
  providers: [SdkEventStore, StreamHub, EventStreamRoute, BotEventsService],
  exports: [SdkEventStore],
})
export class BotEventsModule {}
