import type { TemplateCardSpec } from '../carousel/template-cards.js';

export interface SenderView {
  id: string;
  channel: string;
  /** With country code, leading +. */
  number: string;
  phoneNumberId: string;
  /** Always true: a sender cannot exist without a token, and the token itself is never shown. */
  accessTokenSet: boolean;
  /** WhatsApp Business Account id, or null when not set (templates cannot be synced through this sender). */
  wabaId: string | null;
  /** Messages per second the workers send through this number. */
  throughput: number;
  /** Meta's messaging limit tier (unique business-initiated recipients in 24 h, e.g. TIER_1K) as last read, and when; null: never read. */
  messagingLimitTier?: string | null;
  messagingLimitReadAt?: string | null;
  createdAt: string;
  /** Messages through this sender that failed in the last 24 hours. */
  recentFailures?: number;
  /** The newest failure through this sender (any time), or null when none failed. */
  lastError?: { code: string | null; text: string | null; at: string } | null;
}

export interface TemplateView {
  id: string;
  channel: string;
  name: string;
  language: string;
  category: string;
  cardCount: number;
  cardHeaderFormat: string;
  /** Meta's review status; only APPROVED templates are sent. */
  status: string;
  /** `synced` from the Cloud API (checked on trigger), or `manual`: registered by hand, values sent unchecked. */
  source: 'synced' | 'manual';
  /** {{n}} placeholders of the message body above the cards. */
  bodyParameterCount: number;
  /** Per card: body placeholders and buttons (synced templates; null for manual ones). */
  cards: TemplateCardSpec[] | null;
  updatedAt: string;
  createdAt: string;
}

/** What a template sync did to one stored template. */
export type TemplateChange = 'created' | 'updated' | 'unchanged' | 'deleted';

/** Answer of POST /v1/bots/:botId/whatsapp/templates/sync (and of the CLI's `template sync`). */
export interface TemplateSyncView {
  /** WhatsApp Business Accounts read. */
  accounts: string[];
  created: number;
  updated: number;
  unchanged: number;
  /** Synced before, gone from the account now: marked DELETED. */
  deleted: number;
  /** Templates of the accounts that are not carousels (or carousels the platform cannot send), left out. */
  skipped: number;
  templates: Array<{ id: string; name: string; language: string; status: string; change: TemplateChange }>;
}
