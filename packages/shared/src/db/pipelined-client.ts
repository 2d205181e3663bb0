import type pg from 'pg';

/**
 * Put before a statement's text, it is sent with the transaction's COMMIT ahead of it, in one round trip, and
 * runs after the commit on its own (decision 0064). A failed commit fails it unsent.
 */
export const AFTER_COMMIT = '-- after the commit\n';

/** How a statement that sets a parameter for the rest of its transaction starts: held with the transaction's BEGIN. */
const SET_LOCAL = 'SET LOCAL ';

type QueryConfig = pg.QueryConfig & { callback?: (error: Error | null, result?: unknown) => void };
type Connection = {
  parse(message: { text: string; name?: string; types?: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows?: number }): void;
  parsedStatements: Record<string, string>;
};
type QueryInternals = {
  prepare(connection: Connection): void;
  handleReadyForQuery(connection: Connection): void;
  _result: unknown;
  _results: unknown;
};

/**
 * node-postgres's client, whose transactions take two round trips fewer (decision 0064): the BEGIN a transaction
 * starts with is held back and sent in one write with its first statement, ahead of it in the same extended-query
 * batch (one Sync: a statement that fails leaves the transaction failed, as after a BEGIN of its own), with any
 * `SET LOCAL` sent before that statement (decision 0066); and a statement marked AFTER_COMMIT goes in one write
 * behind its transaction's COMMIT. A transaction that ends before any statement sends nothing. The pool clears a
 * held BEGIN as it hands the connection out.
 */
export function pipelinedClient(driver: typeof pg): typeof pg.Client {
  const Query = driver.Query as unknown as new (config: QueryConfig) => pg.Query & QueryInternals;

  /**
   * The statement, sent in one batch behind `ahead` (BEGIN and its settings, or COMMIT); it answers as the
   * statement alone does.
   */
  class StatementBehind extends Query {
    constructor(
      private readonly ahead: readonly string[],
      config: QueryConfig,
    ) {
      super({ ...config, queryMode: 'extended' } as QueryConfig);
    }
    override prepare(connection: Connection): void {
      for (const text of this.ahead) {
        connection.parse({ text, name: '', types: [] });
        connection.bind({ portal: '', statement: '', values: [] });
        connection.execute({ portal: '', rows: 0 });
      }
      super.prepare(connection);
    }
    override handleReadyForQuery(connection: Connection): void {
      this._results = this._result; // the statement's, not `ahead`'s
      super.handleReadyForQuery(connection);
    }
  }

  return class PipelinedClient extends driver.Client {
    /** BEGIN and the transaction's SET LOCALs, held back until its first statement; undefined when none is. */
    private held: string[] | undefined;

    /** Forgets a BEGIN held back: the connection's last user left without a statement, COMMIT or ROLLBACK. */
    forgetHeldBegin(): void {
      this.held = undefined;
    }

    // One signature for node-postgres's overloads: the pool and Prisma's adapter call it with a config object.
    override query(config: unknown, values?: unknown, callback?: unknown): never {
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      const send = (query: unknown) => (super.query as (...args: unknown[]) => never)(query, values, callback);
      if (typeof callback === 'function' || typeof values === 'function' || typeof text !== 'string') return send(config);
      if (text === 'BEGIN' && !this.held) {
        this.held = ['BEGIN'];
        return Promise.resolve(emptyResult('BEGIN')) as never;
      }
      if (this.held) {
        // A setting of the transaction answers nothing either: it goes with BEGIN.
        if (text.startsWith(SET_LOCAL) && !text.includes(';')) {
          this.held.push(text);
          return Promise.resolve(emptyResult('SET')) as never;
        }
        const held = this.held;
        this.held = undefined;
        if (text === 'COMMIT' || text === 'ROLLBACK') return Promise.resolve(emptyResult(text)) as never;
        // Nothing to commit: the statement runs on its own.
        if (text.startsWith(AFTER_COMMIT)) return send(config);
        return this.behind(held, config as QueryConfig);
      }
      if (text.startsWith(AFTER_COMMIT)) return this.behind(['COMMIT'], config as QueryConfig);
      return send(config);
    }

    private behind(ahead: readonly string[], config: QueryConfig): never {
      const send = (query: unknown) => (super.query as (query: unknown) => Promise<unknown>)(query);
      // node-postgres takes the batch's first ParseComplete, ahead's, for a named statement's own: one it has not
      // prepared on this connection yet goes after ahead's answers, as it would without this client.
      const { parsedStatements } = (this as unknown as { connection: Connection }).connection;
      if (config.name && parsedStatements[config.name] === undefined) {
        return (async () => {
          for (const text of ahead) await send(text);
          return send(config);
        })() as never;
      }
      return new Promise((resolve, reject) => {
        const callback = (error: Error | null, result?: unknown) => (error ? reject(error) : resolve(result));
        void send(new StatementBehind(ahead, { ...config, callback }));
      }) as never;
    }
  } as unknown as typeof pg.Client;
}

function emptyResult(command: string) {
  return { command, rowCount: null, oid: 0, rows: [], fields: [] };
}
