import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const DEVICE_PLATFORMS = ['android', 'ios', 'web'] as const;
export type DevicePlatformName = (typeof DEVICE_PLATFORMS)[number];

export const MAX_DEVICE_TOKEN_LENGTH = 4096;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Body of POST /v1/bots/:botId/devices (what the SDK's registerDevice sends). */
export class RegisterDeviceDto {
  /** Required with an API key; with a chat auth token the user is the token's chat user (omit it, or give that id). */
  @IsOptional()
  @IsString({ message: '$property must be a string' })
  @Matches(/\S/, { message: '$property must not be empty or blank' })
  @MaxLength(256, { message: '$property must be at most 256 characters' })
  userId?: string;

  /** FCM registration token; surrounding whitespace is dropped, an empty or blank token is refused. */
  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Transform(trim)
  @Matches(/\S/, { message: '$property must not be empty or blank' })
  @MaxLength(MAX_DEVICE_TOKEN_LENGTH, { message: `$property must be at most ${MAX_DEVICE_TOKEN_LENGTH} characters` })
  token: string;

  @IsDefined({ message: '$property is required' })
  @IsIn(DEVICE_PLATFORMS, { message: `$property must be one of: ${DEVICE_PLATFORMS.join(', ')}` })
  platform: DevicePlatformName;
}

/** What the gateway hands the push service: the body with the user settled by the caller's identity. */
export interface RegisterDeviceMessage {
  userId: string;
  token: string;
  platform: DevicePlatformName;
}

export interface RegisterDeviceResult {
  deviceId: string;
  created: boolean;
}

export interface RegisterDeviceResponse {
  message: string;
  status: 'success';
  deviceId: string;
  userId: string;
}

export interface UnregisterDeviceMessage {
  token: string;
  /** Set for chat-token callers: only that user's device is unlinked. */
  userId?: string;
}
