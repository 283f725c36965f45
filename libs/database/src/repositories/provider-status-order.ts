import type { MessageStatus } from '../generated/enums.js';

/**
 * The statuses a provider reports, in the order they supersede each other: a message never moves back in
 * it. `failed` ranks above `sent` (Meta may fail a message it accepted) and below `delivered`, so the end
 * state does not depend on the order webhooks arrive in. Statuses before `sent` rank lowest.
 */
export const PROVIDER_STATUS_ORDER = ['sent', 'failed', 'delivered', 'read'] as const satisfies readonly MessageStatus[];
