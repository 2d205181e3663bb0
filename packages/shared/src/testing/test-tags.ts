/**
 * The tags a test may carry (vitest's `tags` option), the same in every package's vitest.config.ts.
 *
 * `concurrency`: a test that sends many callers at once at one resource (the last seat, one card's balance,
 * one transaction) and asserts that exactly what should happen happened. Such a test can pass by luck, so
 * `CTK_REPEAT_CONCURRENCY=N` runs each one N more times in a row, in the stack its file started
 * (`node scripts/run-tests.mjs --repeat-concurrency=N` runs only these, N more times each).
 */
export const testTags = [
  {
    name: 'concurrency',
    description: 'Many callers at once on one resource; CTK_REPEAT_CONCURRENCY=N repeats each N more times',
    repeats: repeatsFromEnvironment(process.env.CTK_REPEAT_CONCURRENCY),
  },
];

function repeatsFromEnvironment(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const repeats = Number(value);
  if (!Number.isInteger(repeats) || repeats < 0) throw new Error(`CTK_REPEAT_CONCURRENCY is a whole number, not ${value}`);
  return repeats;
}
