import type { z } from 'zod';
import type { InputIssue } from '@ctk/shared';

/**
 * A field's path as the document spells it, under `feed`: `feed.dataFeedElement[0].offers.ctk:priceMinor`.
 * (Not @ctk/shared's snake_case: a feed's members are JSON-LD terms, and a snake_case name would name no member.)
 */
export function feedField(path: readonly PropertyKey[]): string {
  const spelled = path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${clip(String(key))}`)).join('');
  return `feed${spelled}`;
}

/** Each zod issue as a field and a message; unknown members one by one. */
export function feedIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: feedField([...issue.path, key]), message: `Unknown member "${clip(key)}"` }));
    }
    return [{ field: feedField(issue.path), message: issue.message }];
  });
}

/** A member name as an error shows it: a megabyte key must not be echoed whole. */
function clip(key: string): string {
  return key.length > 100 ? `${key.slice(0, 100)}…` : key;
}
