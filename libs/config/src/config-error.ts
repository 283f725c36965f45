import { StartupError } from '@platform/common';

/** The environment does not meet the rules of the env classes an app composes; its message names each variable. */
export class ConfigError extends StartupError {}
