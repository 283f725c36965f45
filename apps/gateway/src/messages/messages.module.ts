import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { MessageStatusService } from './message-status.service.js';
import { MessageLogController } from './message-log.controller.js';
import { MessageLogService } from './message-log.service.js';
import { MessagesController } from './messages.controller.js';

@Module({ imports: [AuthModule], controllers: [MessagesController, MessageLogController], providers: [MessageStatusService, MessageLogService] })
export class MessagesModule {}
