import { IsOptional, IsString } from 'class-validator';
import { IntEnv } from '../env-decorators.js';

/** Where the gateway finds the bundled hosted chat page it serves at /web/bot, and what users may send from it. */
export class WebChatEnv {
  /** Directory of the built page (default: dist/web-chat beside the build). */
  @IsOptional()
  @IsString({ message: 'WEB_CHAT_DIR must be a path' })
  WEB_CHAT_DIR?: string;

  /** Largest picture or file a chat user may send (bytes; stored in Postgres). */
  @IntEnv({ min: 1024, max: 20 * 1024 * 1024 })
  CHAT_ATTACHMENT_MAX_BYTES: number = 5 * 1024 * 1024;
}
