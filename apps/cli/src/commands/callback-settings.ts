import { CallbackEnv, WebhookUrlEnv } from '@platform/config';
import { CallbackKind, callbackUrlProblem, generateWebhookSecret } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { CallbackSettings, CallbackSettingsRepository } from '@platform/database';
import type { CliCommand } from '../command.js';
import { UsageError } from '../usage.error.js';

type App = Parameters<CliCommand['run']>[0];

const HOUR_MS = 3600_000;

export async function requireBotCallbacks(app: App, botId: string): Promise<CallbackSettings> {
  const settings = await app
    .get(CallbackSettingsRepository)
    .find(botId)
    .catch(() => null);
  if (!settings) throw new UsageError(`no bot ${botId}`);
  return settings;
}

/** The gateway's one rule for callback URLs: https (http with WEBHOOK_ALLOW_HTTP), every resolved address public unless allowed. */
export async function checkCallbackUrl(app: App, url: string): Promise<void> {
  const env = app.get(WebhookUrlEnv);
  const problem = await callbackUrlProblem(url, { allowHttp: env.WEBHOOK_ALLOW_HTTP, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES });
  if (problem) throw new UsageError(`--url ${problem}`);
}

/**
 * Sets the URL of one kind; the bot gets a signing secret when it has none, and `rotate` starts a
 * rotation (the previous secret signs too for CALLBACK_SECRET_ROTATION_HOURS). The new secret, if any.
 */
export async function setCallbackUrl(app: App, botId: string, kind: CallbackKind, url: string, rotate: boolean): Promise<string | undefined> {
  const current = await requireBotCallbacks(app, botId);
  await checkCallbackUrl(app, url);
  const repo = app.get(CallbackSettingsRepository);
  const box = app.get(SecretBox);
  let secret: string | undefined;
  if (!current.secret) {
    secret = generateWebhookSecret();
    await repo.setSecret(botId, box.encrypt(secret));
  } else if (rotate) {
    secret = generateWebhookSecret();
    await repo.rotateSecret(botId, box.encrypt(secret), new Date(Date.now() + app.get(CallbackEnv).CALLBACK_SECRET_ROTATION_HOURS * HOUR_MS));
  }
  await repo.setUrl(botId, kind, url);
  return secret;
}

/** Removes one endpoint; the secret goes with the last one. */
export async function clearCallbackUrl(app: App, botId: string, kind: CallbackKind): Promise<void> {
  const current = await requireBotCallbacks(app, botId);
  const other = kind === 'webhook' ? current.endpoints.postback : current.endpoints.webhook;
  if (other) await app.get(CallbackSettingsRepository).clearUrl(botId, kind);
  else await app.get(CallbackSettingsRepository).clearAll(botId);
}
