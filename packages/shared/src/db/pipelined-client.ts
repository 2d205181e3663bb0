import type pg from 'pg';

/**
 * Put before a statement's text, it is sent with the transaction's COMMIT ahead of it, in one round trip, and
 * runs after the commit on its own (decision 0064). A failed commit fails it unsent.
 */
export const AFTER_COMMIT = '-- after the commit\n';

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
 * batch (one Sync: a statement that fails leaves the transaction failed, as after a BEGIN of its own); and a
 * statement marked AFTER_COMMIT goes in one write behind its transaction's COMMIT. A transaction that ends before
 * any statement sends nothing. The pool clears a held BEGIN as it hands the connection out.
 */
export function pipelinedClient(driver: typeof pg): typeof pg.Client {
  const Query = driver.Query as unknown as new (config: QueryConfig) => pg.Query & QueryInternals;

  /** The statement, sent in one batch behind `ahead` (BEGIN or COMMIT); it answers as the statement alone does. */
  class StatementBehind extends Query {
    constructor(
      private readonly ahead: 'BEGIN' | 'COMMIT',
      config: QueryConfig,
    ) {
      super({ ...config, queryMode: 'extended' } as QueryConfig);
    }
    override prepare(connection: Connection): void {
      connection.parse({ text: this.ahead, name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: [] });
      connection.execute({ portal: '', rows: 0 });
      super.prepare(connection);
    }
    override handleReadyForQuery(connection: Connection): void {
      this._results = this._result; // the statement's, not `ahead`'s
      super.handleReadyForQuery(connection);
    }
  }

  return class PipelinedClient extends driver.Client {
    private beginHeld = false;

    /** Forgets a BEGIN held back: the connection's last user left without a statement, COMMIT or ROLLBACK. */
    forgetHeldBegin(): void {
      this.beginHeld = false;
    }

    // One signature for node-postgres's overloads: the pool and Prisma's adapter call it with a config object.
    override query(config: unknown, values?: unknown, callback?: unknown): never {
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      const send = (query: unknown) => (super.query as (...args: unknown[]) => never)(query, values, callback);
      if (typeof callback === 'function' || typeof values === 'function' || typeof text !== 'string') return send(config);
      if (text === 'BEGIN' && !this.beginHeld) {
        this.beginHeld = true;
        return Promise.resolve(emptyResult('BEGIN')) as never;
      }
      if (this.beginHeld) {
        this.beginHeld = false;
        if (text === 'COMMIT' || text === 'ROLLBACK') return Promise.resolve(emptyResult(text)) as never;
        // Nothing to commit: the statement runs on its own.
        if (text.startsWith(AFTER_COMMIT)) return send(config);
        return this.behind('BEGIN', config as QueryConfig);
      }
      if (text.startsWith(AFTER_COMMIT)) return this.behind('COMMIT', config as QueryConfig);
      return send(config);
    }

    private behind(ahead: 'BEGIN' | 'COMMIT', config: QueryConfig): never {
      const send = (query: unknown) => (super.query as (query: unknown) => Promise<unknown>)(query);
      // node-postgres takes the batch's first ParseComplete, ahead's, for a named statement's own: one it has not
      // prepared on this connection yet goes after ahead's answer, as it would without this client.
      const { parsedStatements } = (this as unknown as { connection: Connection }).connection;
      if (config.name && parsedStatements[config.name] === undefined) return send(ahead).then(() => send(config)) as never;
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
