/**
 * How long the runtime may take to stop after SIGTERM: running turns finish (their transactions
 * commit, their outbox is handed over), then the process exits; past this it exits anyway, and a turn
 * cut short is retried by another replica (its transaction rolled back, or its outbox left to hand over).
 */
export const BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS = 15_000;
