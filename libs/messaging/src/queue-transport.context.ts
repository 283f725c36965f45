import { BaseRpcContext } from '@nestjs/microservices';
import type { Job } from 'bullmq';
import type { RequestJobData } from './request-job.js';

/** What a handler can read besides the payload (`@Ctx()`): the BullMQ job that carried the request. */
export class QueueTransportContext extends BaseRpcContext<[Job<RequestJobData>]> {
  getJob(): Job<RequestJobData> {
    return this.args[0];
  }

  getPattern(): string {
    return this.args[0].name;
  }
}
