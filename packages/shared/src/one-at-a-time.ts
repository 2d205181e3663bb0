/**
 * Runs tasks with the same key one after another, in this process (tasks with other keys run freely).
 * pos's openings of a link with a use limit go through it, so that each sees the orders opened before it
 * and a payer at a spent limit is refused before pos takes a rate and a receiving output for nothing;
 * commerce's ticket catalog replacements, so that none waits for another's locks inside a transaction
 * (where Prisma's timeout runs) or holds a pooled connection while it waits. The database's locks decide
 * across processes; this only spares the work and the waiting.
 */
export function oneAtATime() {
  const tails = new Map<string, Promise<unknown>>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export type OneAtATime = ReturnType<typeof oneAtATime>;
