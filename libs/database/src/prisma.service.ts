import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PlatformEnv } from '@platform/config';
import { PrismaClient } from './generated/client.js';

/** The Prisma client over node-postgres. Connection attempts time out fast so outages answer 500, not hang. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(env: PlatformEnv) {
    super({
      adapter: new PrismaPg({
        connectionString: env.DATABASE_URL,
        connectionTimeoutMillis: 1000,
        query_timeout: 5000,
        max: 10,
      }),
    });
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}
