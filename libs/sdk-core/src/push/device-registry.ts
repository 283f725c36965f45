import { DEFAULT_REQUEST_TIMEOUT_MS, resolveApiBaseUrl, resolveFetch, type SdkOptions } from '../config/sdk-options';
import { checkBotId, checkDeviceToken } from '../config/validate-config';
import { ValidationError } from '../errors';
import { DEVICE_PLATFORMS, devicesPath, type DevicePlatform, type RegisterDeviceRequest } from '../session/protocol';
import type { FetchLike } from '../transport/fetch-like';
import { requestJson } from '../transport/http';

export interface DeviceRegistryOptions extends SdkOptions {
  botId: string;
  /**
   * Sent as `Authorization: Bearer <bearerToken>`. Use the chat auth token in apps: API keys must never
   * ship in client-side code. An API key fits server-side callers only.
   */
  bearerToken: string;
}

export interface DeviceRegistration {
  /**
   * The user the device belongs to. Leave it out with a chat auth token: the platform links the device
   * to that token's chat user (the id bots see). Required with an API key.
   */
  userId?: string;
  token: string;
  platform: DevicePlatform;
}

/** The platform's registry of push-notification device tokens for one bot. */
export class DeviceRegistry {
  private readonly botId: string;
  private readonly bearerToken: string;
  private readonly apiBaseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly timeoutMs: number;

  constructor(options: DeviceRegistryOptions) {
    const botIdError = checkBotId(options.botId);
    if (botIdError) throw botIdError;
    if (typeof options.bearerToken !== 'string' || options.bearerToken.trim() === '') {
      throw new ValidationError('bearerToken', 'required', 'bearerToken (API key or chat auth token) is required');
    }
    this.botId = options.botId;
    this.bearerToken = options.bearerToken;
    this.apiBaseUrl = resolveApiBaseUrl(options);
    this.fetchFn = resolveFetch(options);
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /** POST /v1/bots/{botId}/devices with `{ userId, token, platform }`. A blank token is refused before any request. */
  async registerDevice(registration: DeviceRegistration): Promise<void> {
    const tokenError = checkDeviceToken('token', registration.token, true);
    if (tokenError) throw tokenError;
    if (registration.userId !== undefined && (typeof registration.userId !== 'string' || registration.userId.trim() === '')) {
      throw new ValidationError('userId', 'blank', 'userId, when given, must be a non-empty string');
    }
    if (!DEVICE_PLATFORMS.includes(registration.platform)) {
      throw new ValidationError('platform', 'oneOf', `platform must be one of ${DEVICE_PLATFORMS.join(', ')}`);
    }
    const body: RegisterDeviceRequest = { token: registration.token, platform: registration.platform };
    if (registration.userId !== undefined) body.userId = registration.userId;
    await this.send('POST', devicesPath(this.botId), body);
  }

  /** DELETE /v1/bots/{botId}/devices/{token}. A blank token is refused before any request. */
  async unlinkDeviceToken(token: string): Promise<void> {
    const tokenError = checkDeviceToken('token', token, true);
    if (tokenError) throw tokenError;
    await this.send('DELETE', devicesPath(this.botId, token));
  }

  private async send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    await requestJson(this.fetchFn, { method, url: this.apiBaseUrl + path, body, bearerToken: this.bearerToken, timeoutMs: this.timeoutMs });
  }
}
