import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { CoreEnv, HttpEnv, loadEnv, readEnv } from '@platform/config';
import { PinoNestLogger, createLogger, oneLineRequestLogging, lazyChildLoggerFactory } from '@platform/logger';
import { documentCarouselTrigger } from './carousel/carousel-trigger.openapi.js';
import { registerConsole } from './console/console-static.js';
import { refuseNonFormOAuthBodies } from './oauth/form-only.hook.js';
import { documentWhatsAppWebhooks } from './whatsapp-webhooks/whatsapp-webhook.openapi.js';
import { GATEWAY_ENV } from './gateway-env.js';
import { GatewayModule } from './gateway.module.js';
import { ErrorResponseFilter } from './http/error-response.filter.js';
import { answerClientError } from './http/client-error-handler.js';
import { configureFastify } from './http/fastify-setup.js';
import { HttpDrain } from './http/http-drain.js';
import { depthLimitedJsonParser } from './http/json-body-parser.js';
import { withValidatorSchemas } from './http/openapi-schemas.js';
import { createValidationPipe } from './http/validation.pipe.js';

const BODY_LIMIT = 1024 * 1024;

/** Builds the gateway (not listening yet). `env` overrides process.env, which tests use. */
export async function createGateway(env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadEnv(GATEWAY_ENV, readEnv(env));
  const http = config.get(HttpEnv);
  const logger = createLogger('gateway', config.get(CoreEnv).LOG_LEVEL);
  const adapter = new PlatformFastifyAdapter({
    loggerInstance: logger,
    ...oneLineRequestLogging(),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 8192 }, // FCM device tokens (~160+ chars) are a path parameter of DELETE /v1/bots/:botId/devices/:token
    trustProxy: http.TRUST_PROXY,
    skipMiddie: true, // no Nest middleware: hooks instead (fastify-setup.ts), so no per-request middleware engine
    clientErrorHandler: answerClientError,
    return503OnClosing: false, // HttpDrain answers those, with the platform's body
  });
  configureFastify(adapter.getInstance());
  refuseNonFormOAuthBodies(adapter.getInstance()); // before Nest registers the OAuth routes: it hooks their registration
  // Through Nest's adapter, so that Nest keeps it instead of registering its own JSON parser at init.
  adapter.useBodyParser('application/json', false, { bodyLimit: BODY_LIMIT }, depthLimitedJsonParser(adapter.getInstance()));
  registerConsole(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false, // a start-up refusal (StartupError) reaches runMain, which prints it
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ErrorResponseFilter());
  app.enableShutdownHooks();
  const openapi = new DocumentBuilder().setTitle('Bot platform API').setVersion('1').addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'x-api-key').addBearerAuth().build();
  SwaggerModule.setup('docs', app, () => withValidatorSchemas(documentWhatsAppWebhooks(documentCarouselTrigger(SwaggerModule.createDocument(app, openapi)))), {
    swaggerUiEnabled: http.OPENAPI_UI,
    jsonDocumentUrl: 'docs/openapi.json',
  });
  return app;
}

/**
 * Nest installs its exception layer as Fastify's error handler after the routes are registered, so the
 * routes keep the handler configureFastify installed first, and Fastify warns (FSTWRN004) about the
 * override. Errors inside Nest's route pipeline go through ErrorResponseFilter either way; the error
 * handler only sees what fails before it (body parsing, hooks), so ours is kept and Nest's dropped.
 */
class PlatformFastifyAdapter extends FastifyAdapter {
  private readonly drain = new HttpDrain(this.getInstance());

  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance();
  }

  /** Nest's first shutdown step, before any module is destroyed: the requests in flight are answered first. */
  override async beforeClose(): Promise<void> {
    super.beforeClose();
    await this.drain.drain();
  }
}

export async function listenGateway(app: NestFastifyApplication): Promise<string> {
  const env = app.get(HttpEnv);
  await app.listen({ port: env.PORT, host: env.HOST });
  return app.getUrl();
}
