import { Module } from '@nestjs/common';
import { WebChatPageRoute } from './web-chat-page.route.js';

@Module({ providers: [WebChatPageRoute] })
export class WebChatPageModule {}
