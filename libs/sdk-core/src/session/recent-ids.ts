/** Remembers the last `capacity` ids, to drop events the server redelivers after a reconnect. */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 500) {}

  /** False when the id was already seen. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
