import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { ConfigError } from './config-error.js';

/** What env classes are read from: a snapshot of process.env, with test overrides over it. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** An env class: one field per variable, its rules as class-validator decorators, its default as initialiser. */
export type EnvClass<T extends object = object> = new () => T;

/** Implemented by an env class with rules that span several of its variables. */
export interface CrossFieldRules {
  /**
   * Runs once each variable of the class is valid on its own; returns the problems found (empty when
   * none) and may fill defaults derived from other variables.
   */
  crossFieldProblems(): string[];
}

/** The validated env classes of one app, each read from the same snapshot. */
export class LoadedEnv {
  constructor(private readonly byClass: ReadonlyMap<EnvClass, object>) {}

  get<T extends object>(envClass: EnvClass<T>): T {
    const value = this.byClass.get(envClass);
    if (!value) throw new Error(`${envClass.name} is not among the env classes this app loaded`);
    return value as T;
  }

  classes(): EnvClass[] {
    return [...this.byClass.keys()];
  }
}

/** One snapshot of process.env, with `overrides` (tests) over it. */
export function readEnv(overrides: Record<string, string> = {}): EnvSource {
  return { ...process.env, ...overrides };
}

/**
 * Validates every class against `source`; throws one ConfigError naming every missing or malformed
 * variable of all of them. Each instance holds only its class's variables. An empty value counts as unset.
 */
export function loadEnv(classes: readonly EnvClass[], source: EnvSource): LoadedEnv {
  const loaded = new Map<EnvClass, object>();
  const problems: string[] = [];
  for (const envClass of classes) {
    const result = loadOne(envClass, source);
    loaded.set(envClass, result.value);
    problems.push(...result.problems);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${[...new Set(problems)].join('\n  - ')}`);
  return new LoadedEnv(loaded);
}

function loadOne(envClass: EnvClass, source: EnvSource): { value: object; problems: string[] } {
  const plain: Record<string, string> = {};
  for (const name of variablesOf(envClass)) {
    const raw = source[name];
    if (raw !== undefined && raw !== '') plain[name] = raw;
  }
  const value = plainToInstance(envClass, plain, { exposeDefaultValues: true });
  const errors = validateSync(value, { forbidUnknownValues: false });
  const problems = errors.map((e) => (e.value === undefined ? `${e.property} is required` : Object.values(e.constraints ?? {}).join('; ')));
  if (problems.length === 0 && hasCrossFieldRules(value)) problems.push(...value.crossFieldProblems());
  return { value, problems };
}

function variablesOf(envClass: EnvClass): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(envClass, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

function hasCrossFieldRules(value: object): value is CrossFieldRules {
  return typeof (value as Partial<CrossFieldRules>).crossFieldProblems === 'function';
}
