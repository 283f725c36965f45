import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { MessageEventFeed } from './message-event-feed.js';
import { MessageStreamController } from './message-stream.controller.js';
import { MessageStreamService } from './message-stream.service.js';
import { StreamTicketStore } from './stream-ticket.store.js';

@Module({ imports: [AuthModule], controllers: [MessageStreamController], providers: [MessageStreamService, MessageEventFeed, StreamTicketStore] })
export class MessageStreamModule {}
