import { BoolEnv, IntEnv } from '../env-decorators.js';
import { ListenEnv } from './listen-env.js';

/** The bot runtime process: its /health and /metrics server, and where its http nodes may connect. */
export class BotRuntimeServerEnv extends ListenEnv {
  @IntEnv({ min: 0, max: 65535 })
  BOT_RUNTIME_HEALTH_PORT: number = 3003;

  /**
   * Let hosted bots' http nodes reach private, loopback, link-local and other non-public addresses
   * (development and tests with services on loopback). Off, such a call fails as the node's error
   * before any connection is made, as postbacks do (WEBHOOK_ALLOW_PRIVATE_ADDRESSES).
   */
  @BoolEnv()
  BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: boolean = false;
}
