/**
 * How long the gateway may take to stop after SIGTERM (drain the connections it holds, end its
 * streams, close its clients) before it exits anyway; deploy/k8s gives the pod longer than its preStop
 * delay plus this.
 */
export const GATEWAY_SHUTDOWN_TIMEOUT_MS = 10_000;
