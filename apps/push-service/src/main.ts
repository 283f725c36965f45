import '@platform/common/v8-flags'; // first, before any other module runs (PLATFORM_V8_FLAGS)
import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createPushService } from './create-push-service.js';

runMain(
  async () => {
    const app = await createPushService();
    app
      .getHttpAdapter()
      .getInstance()
      .log.info(`push service ready (health at ${await app.getUrl()}/health)`);
  },
  { shutdownTimeoutMs: 10_000 },
);
