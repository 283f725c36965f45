import { Body, Controller, Delete, Get, HttpCode, Param, Put, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { MemberView, SetMemberRoleDto } from '@platform/contracts';
import { MembersService } from './members.service.js';

/** Who may administer a bot, and with which role. */
@ApiTags('members')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/members')
@UseGuards(AdminTokenGuard)
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @RequireBotRole('viewer')
  @ApiOperation({ summary: "The bot's members: e-mail, role, member since" })
  async list(@Param('botId') botId: string): Promise<{ members: MemberView[] }> {
    return { members: await this.members.list(botId) };
  }

  @Put()
  @HttpCode(200)
  @RequireBotRole('admin')
  @ApiOperation({ summary: 'Give an existing user (by e-mail) a role on the bot, or change it; the last admin cannot be lowered' })
  async set(@Param('botId') botId: string, @Body() body: SetMemberRoleDto): Promise<{ message: string; status: 'success'; member: MemberView }> {
    const member = await this.members.setRole(botId, body.email, body.role);
    return { message: `${member.email} is now ${member.role} of this bot`, status: 'success', member };
  }

  @Delete(':userId')
  @HttpCode(200)
  @RequireBotRole('admin')
  @ApiOperation({ summary: "Remove a member's role on the bot (takes effect on their next request); the last admin cannot be removed" })
  async remove(@Param('botId') botId: string, @Param('userId') userId: string, @Req() req: FastifyRequest) {
    await this.members.remove(botId, userId, req.adminUser!.userId);
    return { message: 'Member removed from this bot', status: 'success' };
  }
}
