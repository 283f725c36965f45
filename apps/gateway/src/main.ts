import '@platform/common/v8-flags'; // first, before any other module runs (PLATFORM_V8_FLAGS)
import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createGateway, listenGateway } from './create-gateway.js';
import { GATEWAY_SHUTDOWN_TIMEOUT_MS } from './shutdown-timeout.js';

runMain(
  async () => {
    const app = await createGateway();
    const url = await listenGateway(app);
    app.getHttpAdapter().getInstance().log.info(`gateway listening on ${url} (OpenAPI at ${url}/docs)`);
  },
  { shutdownTimeoutMs: GATEWAY_SHUTDOWN_TIMEOUT_MS },
);
