/**
 * A counting semaphore that never waits: a slot per key (an account) and overall, taken at
 * once or refused at once (decision 050). Held from the moment an upload is admitted until
 * its answer is sent, so what one instance receives and processes at a time is bounded,
 * and the rest hear 429 before a byte of their body is read.
 */
export class UploadSlots {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(
    readonly maxPerKey: number,
    readonly maxTotal: number,
  ) {}

  /** A release function (call it once), or null when the key or the instance is at its bound. */
  tryTake(key: string): (() => void) | null {
    const held = this.perKey.get(key) ?? 0;
    if (held >= this.maxPerKey || this.total >= this.maxTotal) return null;
    this.perKey.set(key, held + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left > 0) this.perKey.set(key, left);
      else this.perKey.delete(key);
    };
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.total;
  }
}
