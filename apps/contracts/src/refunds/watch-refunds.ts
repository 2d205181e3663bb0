import type { ContractsContext } from '../domain/contracts-context.js';
import { advanceRefund } from './timelocked-refund-state.js';

/** How many unsettled time-locked refunds one round moves on, those due soonest first. */
const PER_ROUND = 100;

/**
 * One round of the watcher (decision 0039): each time-locked refund not settled is moved on as a reader would
 * (advanceRefund), so that a refund past its date is broadcast without anyone asking. A failure is logged and
 * the next refund tried.
 */
export async function watchRefunds(context: ContractsContext): Promise<void> {
  for (const row of await context.refunds.open(PER_ROUND)) {
    await advanceRefund(context, row).catch((error: unknown) => {
      context.logger.warn({ err: error, id: row.id }, 'a time-locked refund could not be moved on; the next round tries again');
    });
  }
}
