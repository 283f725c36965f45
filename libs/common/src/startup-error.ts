/** A reason an app cannot start that its message fully explains: runMain prints the message without a stack. */
export class StartupError extends Error {}
