import { Module } from '@nestjs/common';
import { BotInputsService } from './bot-inputs.service.js';

/** Hosted bots' inputs, for the entry points (web sessions, web chat and WhatsApp messages) and the handback route. */
@Module({ providers: [BotInputsService], exports: [BotInputsService] })
export class BotInputsModule {}
