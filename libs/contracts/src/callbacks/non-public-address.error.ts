/** A callback URL whose host is, or resolves to, a private, loopback, link-local or otherwise non-public address. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
}
