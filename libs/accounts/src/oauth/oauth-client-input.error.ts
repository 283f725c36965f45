/** A client registration the caller got wrong (name, type, redirect URIs, grants, scopes). */
export class OAuthClientInputError extends Error {}
