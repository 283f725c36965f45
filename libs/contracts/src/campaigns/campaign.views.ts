// Campaign shapes with no class-validator code behind them: what the console may import (views.ts).

/** Where a template value comes from: an audience column (its header), or `{ value }`, the same for everyone. */
export type MappedValue = string | { value: string };

/** Which audience column fills which value of the synced carousel template (docs/campaigns.md#mapping). */
export interface CampaignMapping {
  /** The column holding the recipient's number (E.164, + optional). */
  number: string;
  /** The column holding the recipient's IANA time zone; without it (or when empty) the campaign's. */
  timeZone?: string;
  /** The {{n}} placeholders of the message body above the cards. */
  bodyParameters?: MappedValue[];
  /** One entry per card of the template. */
  cards: Array<{
    mediaLink: MappedValue;
    bodyParameters?: MappedValue[];
    /** One per button that takes a value, in the template's order: a quick-reply payload or a URL suffix. */
    buttons?: Array<{ payload: MappedValue } | { urlSuffix: MappedValue }>;
  }>;
}

/** Quiet hours in each recipient's local time: no message is sent from `from` until `to` (HH:MM, 24 h; may wrap midnight). */
export interface QuietHours {
  from: string;
  to: string;
}

export interface CampaignSchedule {
  /** When sending may begin (ISO 8601); without it, at start. */
  startAt?: string;
  /** The time zone of recipients who have none of their own (IANA, default UTC). */
  timeZone?: string;
  quietHours?: QuietHours;
}

export type CampaignStatusName = 'draft' | 'scheduled' | 'running' | 'paused' | 'cancelled' | 'completed';

export interface CampaignView {
  id: string;
  name: string;
  status: CampaignStatusName;
  templateId: string;
  senderId: string;
  mapping: CampaignMapping;
  schedule: { startAt: string | null; timeZone: string; quietHours: QuietHours | null };
  frequencyCap: number | null;
  transactional: boolean;
  sendShare: number;
  validitySeconds: number | null;
  /**
   * The audience as kept: `rows` counts its rows less those of a number repeated (only a number's first row
   * is kept); `invalid` is how many of those cannot be sent. Recipients (valid, distinct numbers): rows - invalid.
   * What its upload read, as the upload answered: `rowsRead` (a CSV's lines after its header) = rows + `duplicates`
   * (rows repeating an earlier row's number). Both null before an upload completes, and for an audience uploaded
   * before the platform kept them.
   */
  audience: { source: string | null; ready: boolean; rows: number; invalid: number; rowsRead: number | null; duplicates: number | null };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A row of the audience as it will be sent, or why it cannot be. */
export interface CampaignPreviewRow {
  row: number;
  recipient: string | null;
  timeZone?: string | null;
  values?: { bodyParameters?: string[]; cards: Array<{ mediaLink: string; bodyParameters?: string[]; buttons?: unknown[] }> };
  error?: string;
  /** (Upload's answer) a valid row whose number an earlier row has: the row it repeats. Not sent: a number keeps its first row. */
  repeatOf?: number;
}

export interface CampaignAudienceView {
  source: string;
  /** Rows read (a CSV's lines after its header): valid + invalid + duplicates. */
  rows: number;
  /** Recipients: valid rows of distinct numbers, each sent once. */
  valid: number;
  /** Rows that cannot be sent (each in `errors`, up to 20). */
  invalid: number;
  /** Repeated numbers: only their first row is kept. */
  duplicates: number;
  /** The first rows (up to 20) and the first rows with errors (up to 20). */
  preview: CampaignPreviewRow[];
  errors: CampaignPreviewRow[];
}

/** Progress of a campaign: its ledger by state, and the funnel of its messages (each stage counts those that reached it). */
export interface CampaignProgressView {
  status: CampaignStatusName;
  /**
   * The ledger by state. `total` counts its rows, invalid ones included: the recipients are total - invalid.
   * `queued` counts those admitted to sending, and stays so once their message is sent (the funnel says how far
   * each got). `inQuietHours`: of those `pending`, the ones whose local time is in the campaign's quiet hours now.
   */
  recipients: { total: number; pending: number; queued: number; capped: number; invalid: number; cancelled: number; inQuietHours: number };
  funnel: { queued: number; sent: number; delivered: number; read: number; failed: number; replied: number };
}
