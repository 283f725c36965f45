/** What a send attempt means for the message: sent, worth another attempt, or refused for good. */
export type SendOutcome =
  | { kind: 'sent'; providerMessageId: string }
  | { kind: 'retry'; code: string; text: string }
  | { kind: 'failed'; code: string; text: string };

/** The parts of a Graph API answer the platform reads. */
export interface CloudApiAnswer {
  messages?: Array<{ id?: string }>;
  error?: { code?: number; message?: string; error_data?: { details?: string } };
}

/** What Meta's answer to POST /<phone-number-id>/messages means for the message. */
export function classifyCloudApiAnswer(status: number, payload: CloudApiAnswer | undefined): SendOutcome {
  if (status >= 200 && status < 300) {
    const id = payload?.messages?.[0]?.id;
    if (id) return { kind: 'sent', providerMessageId: id };
    return { kind: 'retry', code: `http_${status}`, text: 'WhatsApp Cloud API answered without a message id' };
  }
  const code = payload?.error?.code !== undefined ? String(payload.error.code) : `http_${status}`;
  const text = payload?.error?.error_data?.details ?? payload?.error?.message ?? `HTTP ${status}`;
  // 429 and 5xx are transient; any other 4xx is a verdict on this message (bad number, template, token).
  const retryable = status === 429 || status >= 500;
  return { kind: retryable ? 'retry' : 'failed', code, text };
}
