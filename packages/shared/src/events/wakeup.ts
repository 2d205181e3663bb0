/**
 * A sleep that can be cut short: `wait(ms)` resolves after ms or at `notify()`. A notify while nobody
 * waits is kept for the next wait, so news arriving just before a loop goes to sleep is not missed.
 */
export class Wakeup {
  private waiters = new Set<() => void>();
  private notified = false;

  wait(ms: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = Number.isFinite(ms) ? setTimeout(done, Math.max(0, ms)) : undefined;
      this.waiters.add(done);
    });
  }

  notify(): void {
    if (this.waiters.size === 0) this.notified = true;
    for (const done of [...this.waiters]) done();
  }
}
