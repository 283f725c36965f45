/** A callback URL whose host name does not resolve. */
export class UnresolvableHostError extends Error {
  override name = 'UnresolvableHostError';
}
