import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { MessageStatusService } from './message-status.service.js';
import { MessagesController } from './messages.controller.js';

@Module({ imports: [AuthModule], controllers: [MessagesController], providers: [MessageStatusService] })
export class MessagesModule {}
