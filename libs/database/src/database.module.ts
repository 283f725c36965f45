import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { BotRepository } from './repositories/bot.repository.js';
import { ChannelSenderRepository } from './repositories/channel-sender.repository.js';
import { MessageRepository } from './repositories/message.repository.js';
import { TemplateRepository } from './repositories/template.repository.js';
import { PushConfigRepository } from './repositories/push-config.repository.js';
import { DeviceRepository } from './repositories/device.repository.js';
import { NotificationRepository } from './repositories/notification.repository.js';
import { SdkSessionRepository } from './repositories/sdk-session.repository.js';
import { CallbackSettingsRepository } from './repositories/callback-settings.repository.js';
import { MembershipRepository } from './repositories/membership.repository.js';
import { MessageLogRepository } from './repositories/message-log.repository.js';
import { DeviceDirectoryRepository } from './repositories/device-directory.repository.js';
import { CallbackDeliveryRepository } from './repositories/callback-delivery.repository.js';
import { UserRepository } from './repositories/user.repository.js';
import { TokenRepository } from './repositories/token.repository.js';
import { OAuthClientRepository } from './repositories/oauth-client.repository.js';
import { AuthorizationCodeRepository } from './repositories/authorization-code.repository.js';
import { ConversationRepository } from './repositories/conversation.repository.js';
import { HeldStatusRepository } from './repositories/held-status.repository.js';
import { BotDefinitionRepository } from './repositories/bot-definition.repository.js';
import { BotSecretRepository } from './repositories/bot-secret.repository.js';
import { BotTraceRepository } from './repositories/bot-trace.repository.js';
import { BotTryRepository, BotTryStepFeed } from './repositories/bot-try.repository.js';
import { InboxRepository } from './repositories/inbox.repository.js';
import { BotInputRepository } from './repositories/bot-input.repository.js';
import { BotRunRepository } from './repositories/bot-run.repository.js';
import { OverviewRepository } from './repositories/overview.repository.js';
import { CampaignRepository } from './repositories/campaign.repository.js';
import { ChatPageRepository } from './repositories/chat-page.repository.js';
import { AuditRepository, InvitationRepository, AccountSecurityRepository } from './repositories/administration.repository.js';

const repositories = [
  BotRepository,
  ApiKeyRepository,
  ChannelSenderRepository,
  TemplateRepository,
  MessageRepository,
  PushConfigRepository,
  DeviceRepository,
  NotificationRepository,
  SdkSessionRepository,
  CallbackSettingsRepository,
  UserRepository,
  TokenRepository,
  OAuthClientRepository,
  AuthorizationCodeRepository,
  ConversationRepository,
  MembershipRepository,
  MessageLogRepository,
  DeviceDirectoryRepository,
  CallbackDeliveryRepository,
  HeldStatusRepository,
  BotDefinitionRepository,
  BotSecretRepository,
  BotTraceRepository,
  BotTryRepository,
  BotTryStepFeed,
  InboxRepository,
  BotInputRepository,
  BotRunRepository,
  OverviewRepository,
  CampaignRepository,
  ChatPageRepository,
  AuditRepository,
  InvitationRepository,
  AccountSecurityRepository,
];

@Global()
@Module({ providers: [PrismaService, ...repositories], exports: [PrismaService, ...repositories] })
export class DatabaseModule {}
