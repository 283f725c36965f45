/** The Graph API refused a call (or could not be reached): its HTTP status (0 when unreached) and Meta's error message. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(status ? `WhatsApp Cloud API answered ${status}: ${detail}` : `WhatsApp Cloud API unreachable: ${detail}`);
    this.name = 'GraphApiError';
  }
}
