import { CliCommand } from '../command.js';
import { apiKeyCommands } from './api-key.commands.js';
import { botCommands } from './bot.commands.js';
import { whatsappCommands } from './whatsapp.commands.js';

/** Every operator command; add a feature's commands here. */
export const commands: CliCommand[] = [...botCommands, ...whatsappCommands, ...apiKeyCommands];
