import {
  ColumnTypeEnum,
  type ArgType,
  type ColumnType,
  type SqlDriverAdapterFactory,
  type SqlQueryable,
} from '@prisma/driver-adapter-utils';
import { AFTER_COMMIT } from './pipelined-client.js';

export type SqlArg = string | number | bigint | boolean | Date | Uint8Array | null | readonly (string | null)[];

/**
 * Statements sent on the driver adapter the app's Prisma client runs on (the same pool, or the same PGlite),
 * without the client (decision 0048), for the hottest statements of the money paths: Prisma's client builds,
 * plans and maps each query in JavaScript, several times what PostgreSQL spends on a one-row read. Everything
 * else stays on Prisma. A row comes back as Prisma answers a model's record: each column under its name in
 * camelCase (`order_number` as `orderNumber`, as the schemas map them), int8 as bigint, timestamps as Date,
 * json parsed, text[] as an array of strings, bytea as a Uint8Array, NULL as null.
 */
export type SqlQueries = {
  /** The rows `text` answers, with `$1`, `$2`... bound to `args` in order. */
  rows<T>(text: string, args: readonly SqlArg[]): Promise<T[]>;
};

export type Sql = SqlQueries & {
  /**
   * `work`'s statements in one transaction (READ COMMITTED), committed when it resolves and rolled back when
   * it throws; a deferred constraint that fails at the commit fails it too. On PGlite the transaction holds the
   * database alone meanwhile, as Prisma's do.
   */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * As transaction, then, once it committed, the rows of the statement `then` makes of its result (none when it
   * makes none): on PostgreSQL the statement goes with the COMMIT, in one round trip (decision 0064), and a
   * failed commit fails it unsent. A read after the commit sees what the transaction wrote.
   */
  transactionThenRead<T, R>(
    work: (tx: SqlQueries) => Promise<T>,
    then: (result: T) => Statement | undefined,
    options?: TransactionOptions,
  ): Promise<{ result: T; rows: R[] }>;
};

export type TransactionOptions = {
  /**
   * On PostgreSQL, the transaction's statements run on each one's generic plan, made once a connection
   * (plan_cache_mode force_generic_plan for the transaction, sent with its BEGIN; decision 0066): for statements
   * over a batch's arrays (unnest), whose plans PostgreSQL would otherwise make again on every run. Only where
   * the generic plan is as good for any argument: lookups by key.
   */
  genericPlans?: boolean;
};

/** A statement and its arguments (`$1`, `$2`... bound to `args` in order), to be sent with others (writeTogether). */
export type Statement = { text: string; args: readonly SqlArg[] };

/**
 * Writes whose rows the caller does not need, sent as one statement of data-modifying WITH queries (decision
 * 0063): one round trip and one statement's work in PostgreSQL where each write was one, in the caller's
 * transaction. Answers how many rows each wrote, in order. Each write is a single INSERT, UPDATE or DELETE
 * without RETURNING (and no `$` but its parameters'); all run on the statement's snapshot, in no set order,
 * so none may depend on another's effect (no two touch one row, none reads what another writes). Their
 * triggers fire as each's would; a deferred one at the commit.
 */
export async function writeTogether(tx: SqlQueries, writes: readonly Statement[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const args: SqlArg[] = [];
  const queries = writes.map(({ text, args: own }, index) => {
    const offset = args.length;
    args.push(...own);
    return `w${index} AS (${text.replace(PARAMETER, (_, n: string) => `$${Number(n) + offset}`)} RETURNING 1)`;
  });
  const counts = writes.map((_, index) => `(SELECT count(*) FROM w${index})::int4 AS w${index}`);
  const [row] = await tx.rows<Record<string, number>>(`WITH ${queries.join(', ')} SELECT ${counts.join(', ')}`, args);
  return writes.map((_, index) => row![`w${index}`]!);
}

const PARAMETER = /\$(\d+)/g;

const GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan';

/**
 * A json argument (for json_to_recordset, decision 0048), its bigints as strings of digits, which int8 columns
 * read exactly (a number would lose digits past 2^53), and its dates as ISO 8601 in UTC. A lone UTF-16 surrogate
 * in a string is written as U+FFFD, as a string bound on its own is encoded (PostgreSQL refuses it in json).
 */
export function jsonArg(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    typeof field === 'bigint' ? field.toString() : typeof field === 'string' ? field.replace(LONE_SURROGATE, '\uFFFD') : field,
  );
}

const LONE_SURROGATE = /\p{Cs}/gu;

/** An Sql on a connection of its own from the adapter factory (the factory's pool or PGlite is shared). */
export async function connectSql(factory: SqlDriverAdapterFactory): Promise<Sql & { close(): Promise<void> }> {
  const adapter = await factory.connect();
  async function transactionThenRead<T, R>(
    work: (tx: SqlQueries) => Promise<T>,
    then: (result: T) => Statement | undefined,
    options: TransactionOptions = {},
  ): Promise<{ result: T; rows: R[] }> {
    const tx = await adapter.startTransaction();
    // pg's adapter sent BEGIN as it started the transaction (the pool's client holds it back for the first
    // statement, decision 0064), and leaves COMMIT or ROLLBACK to its caller, as Prisma's engine sends them
    // (usePhantomQuery false); PGlite's runs in its own transaction() until commit or rollback.
    const onPglite = tx.options.usePhantomQuery;
    const send = (statement: string) => (onPglite ? undefined : tx.executeRaw({ sql: statement, args: [], argTypes: [] }));
    try {
      // Held with the BEGIN by the pool's client: no round trip of its own.
      if (options.genericPlans) await send(GENERIC_PLANS);
      const result = await work({ rows: (text, args) => rowsOn(tx, text, args) });
      // PGlite's adapter answers a failed COMMIT as a success: its deferred constraints (a card's draw, decision
      // 0050) are checked by a statement first, whose failure rolls back as any statement's does.
      if (onPglite) await rowsOn(tx, 'SET CONSTRAINTS ALL IMMEDIATE', []);
      const read = then(result);
      let rows: R[] = [];
      if (read && !onPglite) rows = await rowsOn<R>(tx, AFTER_COMMIT + read.text, read.args);
      else await send('COMMIT');
      await tx.commit();
      if (read && onPglite) rows = await rowsOn<R>(adapter, read.text, read.args);
      return { result, rows };
    } catch (error) {
      await Promise.resolve(send('ROLLBACK')).catch(() => undefined);
      await tx.rollback().catch(() => undefined);
      throw error;
    }
  }
  return {
    rows: (text, args) => rowsOn(adapter, text, args),
    transactionThenRead,
    transaction: async (work, options) => (await transactionThenRead(work, () => undefined, options)).result,
    close: () => adapter.dispose(),
  };
}

/**
 * The same reads on a Prisma transaction (its raw queries), where a statement shares the transaction with
 * Prisma's own writes: rows as `rows` answers them (Prisma's raw queries read the types as Prisma does).
 */
export function prismaQueries(tx: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> }): SqlQueries {
  return {
    async rows<T>(text: string, args: readonly SqlArg[]): Promise<T[]> {
      const rows = await tx.$queryRawUnsafe<Array<Record<string, unknown>>>(text, ...args);
      return rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [camelCase(column), value])) as T);
    },
  };
}

async function rowsOn<T>(queryable: SqlQueryable, text: string, args: readonly SqlArg[]): Promise<T[]> {
  const result = await queryable.queryRaw({ sql: text, args: [...args], argTypes: args.map(argTypeOf) });
  const names = result.columnNames.map(camelCase);
  const readers = result.columnTypes.map((type, index) => readerOf(type, result.columnNames[index]!));
  return result.rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) {
      const value = row[index];
      record[names[index]!] = value === null || value === undefined ? null : readers[index]!(value);
    }
    return record as T;
  });
}

function argTypeOf(arg: SqlArg): ArgType {
  if (Array.isArray(arg)) return { scalarType: 'string', arity: 'list' };
  const scalarType =
    typeof arg === 'bigint'
      ? 'bigint'
      : typeof arg === 'number'
        ? Number.isInteger(arg)
          ? 'int'
          : 'float'
        : typeof arg === 'boolean'
          ? 'boolean'
          : arg instanceof Date
            ? 'datetime'
            : arg instanceof Uint8Array
              ? 'bytes'
              : 'string';
  return { scalarType, arity: 'scalar' };
}

/** The column of a model's field: its name in snake_case (`orderNumber` as `order_number`), as the schemas map them. */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);
}

/** Column names seen, in camelCase: a statement's columns are few and fixed, and every row of every call names them. */
const camelCased = new Map<string, string>();

function camelCase(column: string): string {
  let name = camelCased.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    // Bounded by the schemas' column names and aliases; a statement naming columns without end is not cached.
    if (camelCased.size < 10_000) camelCased.set(column, name);
  }
  return name;
}

/** How a column's value, as the adapters read it (int8, timestamps and json as text), becomes Prisma's. */
function readerOf(type: ColumnType, column: string): (value: unknown) => unknown {
  switch (type) {
    case ColumnTypeEnum.Int64:
      return (value) => BigInt(value as string | number);
    case ColumnTypeEnum.DateTime:
    case ColumnTypeEnum.Date:
      return (value) => new Date(value as string);
    case ColumnTypeEnum.Json:
      return (value) => (typeof value === 'string' ? JSON.parse(value) : value);
    case ColumnTypeEnum.TextArray:
    case ColumnTypeEnum.CharacterArray:
      return (value) => value;
    case ColumnTypeEnum.Bytes:
      // pg's adapter answers a Buffer, PGlite's a Uint8Array: Prisma's client answers a Uint8Array.
      return (value) => Uint8Array.from(value as Uint8Array);
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
    case ColumnTypeEnum.Boolean:
    case ColumnTypeEnum.Character:
    case ColumnTypeEnum.Text:
    case ColumnTypeEnum.Enum:
    case ColumnTypeEnum.Uuid:
      return (value) => value;
    default:
      // numeric (Prisma's Decimal), arrays but text[]: not read this way yet.
      throw new Error(`column ${column} is of a type Sql does not read (${type}): read it through Prisma`);
  }
}
