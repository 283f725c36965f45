import { IsOptional, IsUUID } from 'class-validator';
import { PageLimit } from '../common/paging.dto.js';

/** Query of GET /v1/bots/:botId/push/devices. */
export class DeviceListQueryDto {
  @IsOptional()
  @IsUUID('all', { message: '$property must be a cursor from a previous answer' })
  cursor?: string;

  @PageLimit()
  limit?: string;
}

/** A registered device as listed: the FCM token shortened (enough to recognise it, not to use it). */
export interface DeviceView {
  id: string;
  userId: string;
  platform: string;
  tokenPreview: string;
  registeredAt: string;
  updatedAt: string;
  deadAt: string | null;
  deadReason: string | null;
}

export interface DeviceListResponse {
  total: number;
  live: number;
  dead: number;
  devices: DeviceView[];
  nextCursor: string | null;
}
