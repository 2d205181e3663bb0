import type { Logger } from '../logger.js';
import { within } from '../events/within.js';

/** What an app needs to serve: its database answering (absent when the app has none). */
export type ReadinessChecks = {
  database?: { $queryRawUnsafe(sql: string): Promise<unknown> };
};

const DATABASE_TIMEOUT_MS = 2_000;

/** Whether the app can serve now, and if not, why. */
export async function readiness(checks: ReadinessChecks): Promise<{ ready: boolean; why?: string }> {
  if (checks.database) {
    const answered = await within(checks.database.$queryRawUnsafe('SELECT 1'), DATABASE_TIMEOUT_MS, 'no answer').then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (answered !== undefined) return { ready: false, why: `the database does not answer: ${answered.split('\n')[0]}` };
  }
  return { ready: true };
}

/**
 * Checks readiness every periodMs and reports each change (a service's grpc.health.v1 status, which Kubernetes'
 * readiness probe reads), logging why it is not ready. Returns a stop function.
 */
export function watchReadiness(checks: ReadinessChecks, report: (ready: boolean) => void, logger: Logger, periodMs = 5_000): () => void {
  let last = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    const { ready, why } = await readiness(checks);
    if (stopped) return;
    if (ready !== last) {
      if (ready) logger.info({}, 'ready again: the database answers');
      else logger.warn({ why }, 'not ready');
      report(ready);
      last = ready;
    }
    timer = setTimeout(check, periodMs);
    timer.unref();
  };
  timer = setTimeout(check, 0);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
