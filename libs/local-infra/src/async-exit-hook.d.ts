// The part of async-exit-hook (no published types) that local Postgres uses.
declare module 'async-exit-hook' {
  interface AsyncExitHook {
    unhookEvent(event: string): void;
  }
  const exitHook: AsyncExitHook;
  export default exitHook;
}
