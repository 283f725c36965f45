/** A set of listeners; `emit` calls each and returns what they threw instead of throwing. */
export class Listeners<Args extends unknown[]> {
  private readonly set = new Set<(...args: Args) => void>();

  /** Returns a function that removes the listener. */
  add(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(...args: Args): unknown[] {
    const thrown: unknown[] = [];
    for (const listener of [...this.set]) {
      try {
        listener(...args);
      } catch (error) {
        thrown.push(error);
      }
    }
    return thrown;
  }

  clear(): void {
    this.set.clear();
  }
}
