/** Whether `value` is one of `values`: the type guard of a union spelled as a constant list. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
