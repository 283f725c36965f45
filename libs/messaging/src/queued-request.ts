/** Per-request options of QueueTransportClient.send / emit. */
export interface QueuedRequestOptions {
  /**
   * Job id of the request. Requests with the same id within `keepAnswerMs` get the first answer again
   * instead of running a second time (the job and its answer are kept). Without one, a random id is
   * used and the job is removed as soon as its answer is out. BullMQ ids cannot hold ':'.
   */
  jobId?: string;
  /** How long an answer stays for a repeated `jobId` (default: the client's `keepAnswerMs`). */
  keepAnswerMs?: number;
  /** How long the caller waits (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

/**
 * Wraps the data of `ClientProxy.send(pattern, new QueuedRequest(data, options))` to give a request
 * its options, as Nest's RmqRecord does for RabbitMQ. Plain data is sent with the defaults.
 */
export class QueuedRequest<T = unknown> {
  constructor(
    readonly data: T,
    readonly options: QueuedRequestOptions = {},
  ) {}
}
