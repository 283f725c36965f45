import { randomBytes } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { Clock, UserService } from '@platform/accounts';
import { AdminSessionService } from '@platform/auth';
import { BotRepository, type BotRole } from '@platform/database';

export interface SeededAdmin {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** A bot of this name with nothing set up (no sender, no key); its id. */
export async function createBot(app: INestApplicationContext, name: string): Promise<string> {
  return (await app.get(BotRepository, { strict: false }).create(name)).id;
}

/** A new bot with an administrator (seedBotAdmin), the subject of the auth tests. */
export async function seedBotWithAdmin(app: INestApplicationContext, name: string): Promise<{ botId: string; admin: SeededAdmin }> {
  const botId = await createBot(app, name);
  return { botId, admin: await seedBotAdmin(app, botId) };
}

/**
 * Headers that make each request come from an address of its own (behind TRUST_PROXY), so that the
 * per-IP limits one test runs into never touch another: `${prefix}1`, `${prefix}2`, …
 */
export function addressPerRequest(prefix: string): () => { 'x-forwarded-for': string } {
  let n = 0;
  return () => ({ 'x-forwarded-for': `${prefix}${++n}` });
}

/** The token endpoint's answer to a bot:admin grant, as a Jest matcher: a bat_ access token for `expiresIn` s and a brt_ refresh token. */
export function adminTokenAnswer(expiresIn: number) {
  return {
    access_token: expect.stringMatching(/^bat_/),
    token_type: 'Bearer',
    expires_in: expiresIn,
    refresh_token: expect.stringMatching(/^brt_/),
    scope: 'bot:admin',
  };
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
