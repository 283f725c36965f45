// Answer shapes of the HTTP API with no Node or class-validator code behind them: what a browser app
// (apps/console) may import. Everything here is also exported by the package's main index.
export * from './carousel/message-status.dto.js';
export * from './carousel/template-cards.js';
export * from './whatsapp/sender-throughput.js';
export * from './auth/api-keys.views.js';
export * from './console/account.dto.js';
export * from './console/message-log.views.js';
export * from './console/whatsapp.views.js';
export * from './console/message-events.js';
export * from './console/inbox.views.js';
export type { ConversationMessageView, MessageContent } from './conversations/message-content.js';
export { fileLabel } from './conversations/file-label.js';
export * from './console/overview.views.js';
export * from './console/onboarding.views.js';
export type { CampaignAudienceView, CampaignMapping, CampaignPreviewRow, CampaignProgressView, CampaignStatusName, CampaignView } from './campaigns/campaign.views.js';
// The labels a hosted bot's node can leave by, as the engine's validator knows them (the builder draws its handles from them).
export { edgeLabel, producibleLabels } from './bots/edge-labels.js';
export type { BotNode as BotDefinitionNode } from './bots/bot-definition.js';
export type { MessagingLimitCheckView } from './campaigns/messaging-limit.js';
