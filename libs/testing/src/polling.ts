/** Calls `probe` every 50 ms until it gives a value other than undefined; fails after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
