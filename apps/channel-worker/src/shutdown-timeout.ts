/**
 * How long the worker may take to stop after SIGTERM: running sends finish and are recorded (BullMQ's
 * close), then the process exits; past this it exits anyway. Orchestrators must allow longer
 * (Kubernetes' terminationGracePeriodSeconds, Compose's stop_grace_period).
 */
export const CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS = 10_000;
