import { CliCommand } from '../command.js';
import { adminCommands } from './admin.commands.js';
import { apiKeyCommands } from './api-key.commands.js';
import { botCommands } from './bot.commands.js';
import { botDefinitionCommands } from './bot-definition.commands.js';
import { keyCommands } from './keys.commands.js';
import { oauthClientCommands } from './oauth-client.commands.js';
import { whatsappCommands } from './whatsapp.commands.js';
import { webhookCommands } from './webhook.commands.js';
import { postbackCommands } from './postback.commands.js';
import { pushCommands } from './push.commands.js';
import { campaignCommands } from './campaign.commands.js';

/** Every operator command; add a feature's commands here. */
export const commands: CliCommand[] = [
  ...botCommands,
  ...botDefinitionCommands,
  ...whatsappCommands,
  ...apiKeyCommands,
  ...adminCommands,
  ...oauthClientCommands,
  ...webhookCommands,
  ...postbackCommands,
  ...keyCommands,
  ...pushCommands,
  ...campaignCommands,
];
