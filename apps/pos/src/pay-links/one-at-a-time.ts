/**
 * Runs tasks with the same key one after another, in this process (tasks with other keys run freely).
 * Openings of a link with a use limit go through it, so that each sees the orders opened before it and
 * a payer at a spent limit is refused before pos takes a rate and a receiving output for nothing. The
 * database lock of the link decides across processes; this only spares the work.
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
