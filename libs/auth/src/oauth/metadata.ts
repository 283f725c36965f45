import { SUPPORTED_SCOPES } from '@platform/accounts';
import { SUPPORTED_GRANT_TYPES } from '@platform/accounts';

/** RFC 8414 authorization server metadata; `issuer` is AUTH_URL. */
export function authorizationServerMetadata(authUrl: string) {
  return {
    issuer: authUrl,
    authorization_endpoint: `${authUrl}/oauth/authorize`,
    token_endpoint: `${authUrl}/oauth/token`,
    revocation_endpoint: `${authUrl}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: SUPPORTED_GRANT_TYPES,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    scopes_supported: SUPPORTED_SCOPES,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${authUrl}/docs`,
  };
}
