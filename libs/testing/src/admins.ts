import { randomBytes } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { Clock, UserService } from '@platform/accounts';
import { AdminSessionService } from '@platform/auth';
import type { BotRole } from '@platform/database';

export interface SeededAdmin {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** A new user with `role` on the bot and a dashboard session issued by the real token service. */
export async function seedBotAdmin(app: INestApplicationContext, botId: string, role: BotRole = 'admin'): Promise<SeededAdmin> {
  const users = app.get(UserService, { strict: false });
  const email = `admin-${randomBytes(6).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await users.create(email, password);
  await users.setRole(user.id, botId, role);
  const pair = await app.get(AdminSessionService, { strict: false }).openSession(user.id);
  return { userId: user.id, email, password, accessToken: pair.accessToken, refreshToken: pair.refreshToken! };
}

/** Moves the auth lib's Clock of `app` forward by `ms` (token and code expiry); returns the function that undoes it. */
export function advanceClock(app: INestApplicationContext, ms: number): () => void {
  const clock = app.get(Clock, { strict: false });
  const original = clock.now;
  clock.now = () => new Date(original.call(clock).getTime() + ms);
  return () => {
    clock.now = original;
  };
}
