import { BadRequestException, Body, Controller, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { TriggerCarouselDto, TriggerCarouselResponse } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { CarouselTriggerService } from './carousel-trigger.service.js';

@ApiTags('carousel')
@Controller('api/engagements/notifications/v2')
export class CarouselTriggerController {
  constructor(private readonly trigger: CarouselTriggerService) {}

  @Post('push')
  @HttpCode(200)
  @UseGuards(ApiKeyGuard, JsonContentTypeGuard)
  @ApiOperation({ summary: 'Trigger a carousel template for one mobile number (queued; 200 means the job is durable)' })
  @ApiQuery({ name: 'bot', required: true, description: 'Id of the bot that owns the template' })
  @ApiHeader({ name: 'x-api-key', required: true })
  async push(
    @Query('bot') bot: string | undefined,
    @Body() body: TriggerCarouselDto,
    @Req() req: FastifyRequest,
  ): Promise<TriggerCarouselResponse> {
    if (typeof bot !== 'string' || bot === '') throw new BadRequestException('query parameter bot is required');
    const msgId = await this.trigger.trigger(req.apiKey!.botId, body);
    return { message: 'Carousel template queued for delivery', status: 'success', msgId };
  }
}
