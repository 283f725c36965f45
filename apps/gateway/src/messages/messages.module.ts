import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { MessagesController } from './messages.controller.js';

@Module({ imports: [AuthModule], controllers: [MessagesController] })
export class MessagesModule {}
