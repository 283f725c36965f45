/** Answer of GET /v1/me: who the access token belongs to and the bots it opens, with the role on each. */
export interface AccountResponse {
  userId: string;
  email: string;
  bots: Array<{ id: string; name: string; role: 'admin' | 'developer' | 'viewer' }>;
}
