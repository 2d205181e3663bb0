import type { SqlQuery } from '@prisma/driver-adapter-utils';

/** The distinct statements one pool names at most: past them, a statement runs unnamed, as all did before. */
const MAX_NAMED = 200;

/**
 * Names each distinct statement the pool's clients send (by its text), so that node-postgres prepares it once
 * on each connection and afterwards only binds and runs it: PostgreSQL parses it once per connection, not on
 * every call, and after five runs keeps a generic plan when that costs no more than planning again. The names
 * are local to the pool (`ctk_1`, `ctk_2`, ...), each always for the same text, as node-postgres requires.
 * Decision 0041 says what it saved, and what a connection pooler in front must allow.
 */
export function statementNames(max = MAX_NAMED): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined) return known;
    if (names.size >= max) return ''; // unnamed: node-postgres parses it every time
    const name = `ctk_${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}
