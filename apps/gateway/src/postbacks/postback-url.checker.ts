import { Injectable } from '@nestjs/common';
import { WebhookUrlEnv } from '@platform/config';
import { NonPublicAddressError, UnresolvableHostError, resolvePublicAddresses, webhookUrlProblem } from '@platform/contracts';

/**
 * Whether a URL may receive postbacks: https (http with WEBHOOK_ALLOW_HTTP), and a host whose every
 * address is public (any with WEBHOOK_ALLOW_PRIVATE_ADDRESSES). The channel worker checks again when it
 * sends, on the addresses it connects to.
 */
@Injectable()
export class PostbackUrlChecker {
  constructor(private readonly env: WebhookUrlEnv) {}

  /** Why `url` is refused, or null. */
  async problem(url: string): Promise<string | null> {
    const syntax = webhookUrlProblem(url, this.env.WEBHOOK_ALLOW_HTTP);
    if (syntax) return syntax;
    try {
      await resolvePublicAddresses(new URL(url).hostname, this.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES);
      return null;
    } catch (err) {
      if (err instanceof NonPublicAddressError) return `must reach a public address: ${err.message}`;
      if (err instanceof UnresolvableHostError) return `host cannot be resolved: ${err.message}`;
      throw err;
    }
  }
}
