/** Delay before redelivering a message that failed `deliveryCount` times: doubling, capped. */
export function retryDelay(deliveryCount: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, deliveryCount - 1), maxMs);
}
