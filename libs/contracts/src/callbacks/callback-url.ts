import { NonPublicAddressError } from './non-public-address.error.js';
import { type LookupAll, resolvePublicAddresses } from './public-address.js';
import { UnresolvableHostError } from './unresolvable-host.error.js';
import { webhookUrlProblem } from '../sdk/webhook.dto.js';

export interface CallbackUrlRule {
  /** http:// accepted (development and tests); otherwise https only. */
  allowHttp: boolean;
  /** Non-public addresses accepted (receivers on loopback in development and tests). */
  allowPrivate: boolean;
}

/**
 * The one rule for every callback URL (bot webhook, bot postback URL, a trigger's postbackUrl), applied
 * when it is set: https (http when allowed), no user info or fragment, and a host whose every address
 * is public. Null when `url` may be used, else why not (for a 400). The sender applies it again, on
 * the addresses it connects to.
 */
export async function callbackUrlProblem(url: string, rule: CallbackUrlRule, lookupAll?: LookupAll): Promise<string | null> {
  const syntax = webhookUrlProblem(url, rule.allowHttp);
  if (syntax) return syntax;
  try {
    await resolvePublicAddresses(new URL(url).hostname, rule.allowPrivate, lookupAll);
    return null;
  } catch (err) {
    if (err instanceof NonPublicAddressError) return `must reach a public address: ${err.message}`;
    if (err instanceof UnresolvableHostError) return `host cannot be resolved: ${err.message}`;
    throw err;
  }
}
