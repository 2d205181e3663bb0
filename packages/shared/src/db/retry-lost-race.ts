import { isDatabaseBusy, isWriteConflict } from './prisma-errors.js';

/**
 * Runs a transaction again, a few times with a short random pause, when it lost a race: a write conflict
 * or deadlock (P2034), or a transaction that could not start or ran out of time while others held what it
 * waited for (P2028, P2024). The task must be the whole transaction, re-reading what it decides on. The
 * last failure is thrown as it is (the gRPC server answers it 409 or 503, never 500).
 */
export async function retryLostRace<T>(task: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts || !(isWriteConflict(error) || isDatabaseBusy(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50 * attempt));
    }
  }
}
