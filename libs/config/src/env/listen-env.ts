import { IsNotEmpty, IsOptional, IsString } from 'class-validator';

/** The interface an app's HTTP server binds (the gateway's API, the worker's and push service's /health). */
export class ListenEnv {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  HOST: string = '127.0.0.1';
}
