import { IsOptional, IsString } from 'class-validator';

/** Where the gateway finds the bundled hosted chat page it serves at /web/bot. */
export class WebChatEnv {
  /** Directory of the built page (default: dist/web-chat beside the build). */
  @IsOptional()
  @IsString({ message: 'WEB_CHAT_DIR must be a path' })
  WEB_CHAT_DIR?: string;
}
