import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';

export class FirebaseConfigDto {
  /** The Firebase service-account JSON document, placed as is (checked by the push service). */
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be the service-account JSON object' })
  serviceAccount: Record<string, unknown>;
}

export class BotNotificationConfigDto {
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => FirebaseConfigDto)
  firebaseConfig: FirebaseConfigDto;
}

/** Body of POST /api/data/vault/saveBotConfig (spec: bot configuration request). */
export class SaveBotConfigDto {
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => BotNotificationConfigDto)
  notification: BotNotificationConfigDto;
}

/** What an administrator may see of a saved service account: nothing secret. */
export interface FirebaseConfigView {
  projectId: string;
  clientEmail: string;
  /** Id of the key in the Google Cloud console (not the key). */
  privateKeyId: string | null;
  savedAt: string;
}

/** Answer of GET /api/data/vault/botConfig. */
export interface BotConfigResponse {
  message: string;
  status: 'success';
  notification: { firebaseConfig: FirebaseConfigView };
}

/** Push-service message of saveConfig: the service account crosses Redis sealed with SecretBox. */
export interface SaveConfigMessage {
  sealedServiceAccount: string;
}
