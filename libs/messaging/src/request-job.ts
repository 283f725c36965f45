/**
 * Data of a job on a request queue. The job's name is the message pattern. `deadline` (epoch ms) is
 * when the caller stops waiting: a consumer that takes the job later drops it without running its
 * handler, so nothing is done behind the back of a caller that was answered "no answer in time".
 */
export interface RequestJobData<T = unknown> {
  data: T;
  /** Null for events: no caller waits, the event is handled whenever a consumer takes it. */
  deadline: number | null;
}

/** Return value of a request job whose handler answered (an error answer fails the job instead). */
export interface RequestJobResult<T = unknown> {
  response: T;
}
