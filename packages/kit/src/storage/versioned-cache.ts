/**
 * What was learned of one version of an object (an encrypted object's header, a content type),
 * kept by key until the object has another version. Bounded: past `limit` keys the oldest goes
 * (a Map iterates in insertion order).
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private readonly limit: number) {}

  /** The value learned of exactly this version, else undefined. */
  get(key: string, version: string | undefined): T | undefined {
    const entry = this.entries.get(key);
    return entry && version !== undefined && entry.version === version ? entry.value : undefined;
  }

  /**
   * The last version learned of and its value, whatever the object's version is now: for a
   * caller that checks the version alongside using the value (see EncryptingStorage.get).
   */
  latest(key: string): { version: string; value: T } | undefined {
    return this.entries.get(key);
  }

  /** Remembers `value` for this version; a storage that gives no version is not cached. */
  set(key: string, version: string | undefined, value: T): void {
    if (version === undefined) return;
    if (!this.entries.has(key) && this.entries.size >= this.limit)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { version, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
