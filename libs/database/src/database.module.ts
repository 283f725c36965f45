import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { BotRepository } from './repositories/bot.repository.js';
import { ChannelSenderRepository } from './repositories/channel-sender.repository.js';
import { MessageRepository } from './repositories/message.repository.js';
import { TemplateRepository } from './repositories/template.repository.js';

const repositories = [BotRepository, ApiKeyRepository, ChannelSenderRepository, TemplateRepository, MessageRepository];

@Global()
@Module({ providers: [PrismaService, ...repositories], exports: [PrismaService, ...repositories] })
export class DatabaseModule {}
