import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { AuditQueryDto } from '@platform/contracts';
import { AuditEntryView, AuditService } from './audit.service.js';

/** The bot's audit log: what its administrators changed, when and from where. */
@ApiTags('audit')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/audit')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: "Administrators' actions on the bot, newest first: who, what, when, from which IP, with which result; paged by cursor" })
  @ApiQuery({ name: 'action', required: false, description: 'Action name or its beginning, e.g. api-keys or whatsapp.senders.delete' })
  @ApiQuery({ name: 'actor', required: false, description: "The administrator's e-mail" })
  @ApiQuery({ name: 'since', required: false, description: 'ISO 8601; at or after' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO 8601; before' })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1-100, default 50' })
  list(@Param('botId') botId: string, @Query() query: AuditQueryDto): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
    return this.audit.list(botId, query);
  }
}
