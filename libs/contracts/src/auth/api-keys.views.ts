/** An API key as listed: never the key or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Answer of key creation: the key itself appears here once and nowhere else. */
export interface CreatedApiKeyResponse extends ApiKeyView {
  key: string;
}
