import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { authorizationServerMetadata } from '@platform/auth';
import { HttpEnv } from '@platform/config';

@ApiTags('oauth')
@Controller('.well-known/oauth-authorization-server')
export class OAuthMetadataController {
  constructor(private readonly env: HttpEnv) {}

  @Get()
  @Header('cache-control', 'public, max-age=3600')
  @ApiOperation({ summary: 'RFC 8414 authorization server metadata (issuer = AUTH_URL)' })
  metadata() {
    return authorizationServerMetadata(this.env.AUTH_URL);
  }
}
