import { ValidationError } from '../errors';
import { findJsonProblem, isPlainObject } from '../json/check-json';
import { utf8Length } from '../json/utf8-length';
import type { JsonObject } from '../json/json-types';
import { DEFAULT_BOT_VERSION, type ResolvedBotConfig } from './bot-config';
import { checkCloudHost } from './sdk-options';
import { AUTH_TOKEN_MAX_LENGTH, AUTH_TOKEN_PATTERN, COLOR_PATTERN, PAYLOAD_MAX_BYTES, regionUrlPattern } from './rules';

export interface ConfigCheckOptions {
  /** The bot cloud host, e.g. `cloud.example.com`. */
  cloudHost: string;
}

/** Every rule the config breaks, at most one per field, in field order. An empty array means valid. */
export function findConfigErrors(input: unknown, options: ConfigCheckOptions): ValidationError[] {
  const cloudHost = checkCloudHost(options.cloudHost);
  if (!isPlainObject(input)) return [new ValidationError('config', 'type', 'The bot config must be a plain object')];
  const errors = [
    checkBotId(input.botId),
    checkAuthToken(input.ymAuthenticationToken),
    checkPayload(input.payload),
    checkVersion(input.version),
    checkCustomBaseUrl(input.customBaseUrl, cloudHost),
    checkBoolean('enableSpeech', input.enableSpeech),
    checkColor('closeButtonColor', input.closeButtonColor),
    checkColor('statusBarColor', input.statusBarColor),
    checkDeviceToken('deviceToken', input.deviceToken),
  ];
  return errors.filter((error): error is ValidationError => error !== null);
}

/** Checks the config and applies defaults; throws the first `ValidationError`. */
export function validateBotConfig(input: unknown, options: ConfigCheckOptions): ResolvedBotConfig {
  const [first] = findConfigErrors(input, options);
  if (first) throw first;
  const config = input as Record<string, unknown>;
  const resolved: ResolvedBotConfig = {
    botId: config.botId as string,
    // A copy: later changes by the app do not alter what is sent, and undefined members are dropped.
    payload: JSON.parse(JSON.stringify(config.payload ?? {})) as JsonObject,
    version: (config.version ?? DEFAULT_BOT_VERSION) as number,
    enableSpeech: (config.enableSpeech ?? false) as boolean,
  };
  const optional = ['ymAuthenticationToken', 'closeButtonColor', 'statusBarColor', 'deviceToken'] as const;
  for (const key of optional) if (config[key] !== undefined) resolved[key] = config[key] as string;
  if (typeof config.customBaseUrl === 'string') resolved.customBaseUrl = config.customBaseUrl.replace(/\/$/, '').toLowerCase();
  return resolved;
}

export function checkBotId(value: unknown): ValidationError | null {
  if (value === undefined || value === null) return new ValidationError('botId', 'required', 'botId is required');
  if (typeof value !== 'string') return new ValidationError('botId', 'type', 'botId must be a string');
  if (value.trim() === '') return new ValidationError('botId', 'blank', 'botId must not be empty');
  return null;
}

export function checkAuthToken(value: unknown): ValidationError | null {
  const field = 'ymAuthenticationToken';
  if (value === undefined) return null;
  if (typeof value !== 'string') return new ValidationError(field, 'type', `${field} must be a string`);
  if (value === '') return new ValidationError(field, 'blank', `${field} must not be empty`);
  if (value.length > AUTH_TOKEN_MAX_LENGTH) {
    return new ValidationError(field, 'maxLength', `${field} must be at most ${AUTH_TOKEN_MAX_LENGTH} characters (got ${value.length})`);
  }
  if (!AUTH_TOKEN_PATTERN.test(value)) return new ValidationError(field, 'charset', `${field} may hold only A-Z a-z 0-9 _ -`);
  return null;
}

export function checkPayload(value: unknown, field = 'payload'): ValidationError | null {
  if (value === undefined) return null;
  if (!isPlainObject(value)) return new ValidationError(field, 'plainObject', `${field} must be a plain object (a JSON map)`);
  const problem = findJsonProblem(value, field);
  if (problem) return new ValidationError(field, problem.rule, problem.message, problem.path);
  // Measured as sent: the JSON text's UTF-8 bytes, the same measure the platform applies.
  const bytes = utf8Length(JSON.stringify(value));
  if (bytes > PAYLOAD_MAX_BYTES) {
    return new ValidationError(field, 'maxBytes', `${field} must be at most ${PAYLOAD_MAX_BYTES} bytes as JSON (UTF-8); it is ${bytes}`);
  }
  return null;
}

function checkVersion(value: unknown): ValidationError | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    return new ValidationError('version', 'integer', 'version must be a positive integer (2 for v2 bots)');
  }
  return null;
}

function checkCustomBaseUrl(value: unknown, cloudHost: string): ValidationError | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') return new ValidationError('customBaseUrl', 'type', 'customBaseUrl must be a string');
  if (!regionUrlPattern(cloudHost).test(value)) {
    return new ValidationError('customBaseUrl', 'regionHost', `customBaseUrl must be https://r1.${cloudHost} … https://r5.${cloudHost}`);
  }
  return null;
}

function checkBoolean(field: string, value: unknown): ValidationError | null {
  if (value === undefined || typeof value === 'boolean') return null;
  return new ValidationError(field, 'type', `${field} must be true or false`);
}

function checkColor(field: string, value: unknown): ValidationError | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') return new ValidationError(field, 'type', `${field} must be a string`);
  if (!COLOR_PATTERN.test(value)) return new ValidationError(field, 'color', `${field} must be #RRGGBB or #AARRGGBB`);
  return null;
}

/** Used for the config's `deviceToken` and for device-registry arguments. */
export function checkDeviceToken(field: string, value: unknown, required = false): ValidationError | null {
  if (value === undefined && !required) return null;
  if (value === undefined || value === null) return new ValidationError(field, 'required', `${field} is required`);
  if (typeof value !== 'string') return new ValidationError(field, 'type', `${field} must be a string`);
  if (value.trim() === '') return new ValidationError(field, 'blank', `${field} must not be empty or blank`);
  return null;
}
