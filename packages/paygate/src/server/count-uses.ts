import { BoundedMap } from './bounded-map.js';

type Uses = { uses: number; exp: number };

/**
 * The uses of calls grants counted in this process, by credential id (the contract: fewer than `calls`
 * uses counted here, the paid request being use 1). Bounded: past `limit` live credentials the least
 * recently used one is forgotten, and would count from zero again, as after a restart; expired ones are
 * pruned first.
 */
export class UseCounter {
  private readonly counts: BoundedMap<string, Uses>;

  constructor(limit: number) {
    this.counts = new BoundedMap(limit);
  }

  /** Counts one use if the credential has one left; false when all `calls` are used. */
  take(jti: string, calls: number, exp: number): boolean {
    const counted = this.counts.get(jti);
    if (!counted) {
      this.counts.set(jti, { uses: 1, exp });
      return true;
    }
    if (counted.uses >= calls) return false;
    counted.uses++;
    return true;
  }

  /** A request the gate let through on this credential (the paid request, or one the gate counted). */
  record(jti: string, exp: number): void {
    const counted = this.counts.get(jti);
    if (counted) counted.uses++;
    else this.counts.set(jti, { uses: 1, exp });
  }

  pruneExpired(nowSeconds: number): void {
    this.counts.prune((counted) => counted.exp <= nowSeconds);
  }
}
