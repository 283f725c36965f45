import { IsOptional, MinLength } from 'class-validator';
import { BoolEnv, IntEnv, UrlEnv } from '../env-decorators.js';
import type { CrossFieldRules } from '../env-loader.js';
import { ListenEnv } from './listen-env.js';

/** The gateway's HTTP server and the public addresses it answers under. */
export class HttpEnv extends ListenEnv implements CrossFieldRules {
  @IntEnv({ min: 0, max: 65535 })
  PORT: number = 3000;

  /** Public addresses ({base_url}, {auth_url}, {cloud_url} of the spec); one host serves all three by default. */
  @IsOptional()
  @UrlEnv()
  BASE_URL: string;

  @IsOptional()
  @UrlEnv()
  AUTH_URL: string;

  @IsOptional()
  @UrlEnv()
  CLOUD_URL: string;

  /** Trust X-Forwarded-* headers (set true only behind a proxy that sets them; per-IP limits rely on it). */
  @BoolEnv()
  TRUST_PROXY: boolean = false;

  /**
   * /metrics on the public port (the gateway's): off unless this is set, then only with
   * `Authorization: Bearer <METRICS_TOKEN>`. The other apps serve /metrics on their health ports.
   */
  @IsOptional()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN: string;

  /** Serve Swagger UI at /docs (the OpenAPI document is always at /docs/openapi.json). */
  @BoolEnv()
  OPENAPI_UI: boolean = true;

  /** Fills the public addresses left unset: http://HOST:PORT, and BASE_URL for the other two. */
  crossFieldProblems(): string[] {
    this.BASE_URL ??= `http://${this.HOST}:${this.PORT}`;
    this.AUTH_URL ??= this.BASE_URL;
    this.CLOUD_URL ??= this.BASE_URL;
    return [];
  }
}
