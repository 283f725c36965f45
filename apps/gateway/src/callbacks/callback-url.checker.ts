import { Injectable } from '@nestjs/common';
import { WebhookUrlEnv } from '@platform/config';
import { callbackUrlProblem } from '@platform/contracts';

/**
 * Whether a URL may receive callbacks (a bot's webhook or postback URL, a trigger's postbackUrl): https
 * (http with WEBHOOK_ALLOW_HTTP), and a host whose every address is public (any with
 * WEBHOOK_ALLOW_PRIVATE_ADDRESSES). The channel worker checks again when it sends, on the addresses it
 * connects to.
 */
@Injectable()
export class CallbackUrlChecker {
  constructor(private readonly env: WebhookUrlEnv) {}

  /** Why `url` is refused, or null. */
  problem(url: string): Promise<string | null> {
    return callbackUrlProblem(url, { allowHttp: this.env.WEBHOOK_ALLOW_HTTP, allowPrivate: this.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES });
  }
}
