import { SetMetadata } from '@nestjs/common';
import type { BotRole } from '@platform/database';

export const REQUIRED_BOT_ROLE = 'platform:required-bot-role';

/** Least role on the route's bot that AdminTokenGuard demands (without this decorator: 'admin'). */
export const RequireBotRole = (role: BotRole) => SetMetadata(REQUIRED_BOT_ROLE, role);
