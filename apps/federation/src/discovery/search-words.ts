import { AppError } from '@ctk/shared';

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a search as a PostgreSQL tsquery of the `simple` configuration: every word must be there,
 * the last may be the start of one (typing "oat la" finds "Oat latte"). Only letters and digits pass, so
 * nothing of the query's syntax can come from the caller.
 */
export function searchWords(q: string): string {
  const words = (q.toLowerCase().match(WORD) ?? []).slice(0, 8).map((word) => word.slice(0, 40));
  if (words.length === 0) throw new AppError('validation_failed', 'q must hold at least one word (letters or digits).', { field: 'q' });
  return words.map((word, index) => (index === words.length - 1 ? `${word}:*` : word)).join(' & ');
}
