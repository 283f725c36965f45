import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createGateway, listenGateway } from './create-gateway.js';

runMain(async () => {
  const app = await createGateway();
  const url = await listenGateway(app);
  app.getHttpAdapter().getInstance().log.info(`gateway listening on ${url} (OpenAPI at ${url}/docs)`);
}, { shutdownTimeoutMs: 10_000 });
