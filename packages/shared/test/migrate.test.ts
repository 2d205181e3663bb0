import { access, chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSchemas, MIGRATION_LOCK, pendingMigrations } from '../src/db/migrate.js';
import { openDatabase, prepareDatabase, type Database } from '../src/db/open-database.js';
import { emptyTemplate, keepTemplate, templateOf } from '../src/db/pglite-template.js';
import { statementsOf } from '../src/db/pglite-open.js';
import { eventually } from '../src/testing/eventually.js';
import { createTestDatabase } from '../src/testing/test-database.js';

const INIT = '20260101000000_init';
const ADD_PRICE = '20260102000000_add_price';

const HEADER = `generator client {
  provider = "prisma-client"
  output   = "./generated"
}

datasource db {
  provider = "postgresql"
}
`;
const SCHEMA_V1 = `${HEADER}
model Item {
  id   String @id
  name String

  @@map("items")
}
`;
const SCHEMA_V2 = SCHEMA_V1.replace('  name String\n', '  name  String\n  price Int    @default(0)\n');

const INIT_SQL = `-- CreateTable
CREATE TABLE "items" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "items_pkey" PRIMARY KEY ("id")
);
`;
const ADD_PRICE_SQL = 'ALTER TABLE "items" ADD COLUMN "price" INTEGER NOT NULL DEFAULT 0;\n';
const BROKEN_SQL = 'CREATE TABLE "items" ("id" TEXT PRIMARY KEY);\nCREATE TABEL "oops" ("id" TEXT);\n';

const temporary: string[] = [];
afterAll(async () => {
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctk-shared-migrate-'));
  temporary.push(dir);
  return dir;
}

/** A prisma/ folder holding schema.prisma and these migrations (written in the order given). */
/** Runs `work` with the temp folder (where PGlite templates are kept) a new one of its own, then puts it back. */
async function withTempFolder(work: (temp: string) => Promise<void>): Promise<void> {
  const temp = await tempDir();
  const before = process.env.TMPDIR;
  process.env.TMPDIR = temp;
  try {
    await work(temp);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

async function prismaDir(migrations: Array<[name: string, sql: string]>, schema = SCHEMA_V1): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'schema.prisma'), schema);
  for (const [name, sql] of migrations) {
    await mkdir(join(dir, 'migrations', name), { recursive: true });
    await writeFile(join(dir, 'migrations', name, 'migration.sql'), sql);
  }
  return dir;
}

async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(join(dir, 'migrations', name), { recursive: true });
  await writeFile(join(dir, 'migrations', name, 'migration.sql'), sql);
}

/** Rows of a query run through the database's driver adapter, as the app's Prisma client would. */
async function query(db: Database, sql: string): Promise<unknown[][]> {
  const connection = await db.adapter.connect();
  try {
    return (await connection.queryRaw({ sql, args: [], argTypes: [] })).rows;
  } finally {
    await connection.dispose();
  }
}

async function execute(db: Database, sql: string, args: unknown[] = []): Promise<number> {
  const connection = await db.adapter.connect();
  try {
    return await connection.executeRaw({
      sql,
      args,
      argTypes: args.map(() => ({ scalarType: 'string' as const, arity: 'scalar' as const })),
    });
  } finally {
    await connection.dispose();
  }
}

async function appliedInDatabase(db: Database): Promise<unknown[][]> {
  return query(
    db,
    'SELECT migration_name, finished_at IS NOT NULL, rolled_back_at IS NULL FROM _prisma_migrations ORDER BY migration_name',
  );
}

describe('diffSchemas', () => {
  async function diff(from: string | undefined, to: string): Promise<string> {
    const pglite = new PGlite();
    try {
      return await diffSchemas(
        new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory,
        await prismaDir([], to),
        from,
        to,
      );
    } finally {
      await pglite.close();
    }
  }

  it('writes the SQL that creates a schema from nothing', async () => {
    const sql = await diff(undefined, SCHEMA_V1);
    expect(sql).toContain('CREATE TABLE "items"');
    expect(sql).toContain('"name" TEXT NOT NULL');
    expect(sql).toContain('CONSTRAINT "items_pkey" PRIMARY KEY ("id")');
  });

  it('writes the SQL that takes one schema to the next', async () => {
    const sql = await diff(SCHEMA_V1, SCHEMA_V2);
    expect(sql).toMatch(/ALTER TABLE "items" ADD COLUMN\s+"price" INTEGER NOT NULL DEFAULT 0/);
    expect(sql).not.toContain('CREATE TABLE');
  });

  it('writes an empty migration when nothing changed', async () => {
    const sql = await diff(SCHEMA_V2, SCHEMA_V2);
    expect(sql).toContain('This is an empty migration');
    expect(sql).not.toMatch(/CREATE|ALTER|DROP/);
  });
});

describe('openDatabase on PGlite', () => {
  it('migrates an in-memory database and the table exists', async () => {
    const db = await openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: await prismaDir([[INIT, INIT_SQL]]) });
    try {
      expect(db.kind).toBe('pglite');
      expect(db.appliedMigrations).toEqual([INIT]);
      expect(await query(db, 'SELECT count(*)::int FROM items')).toEqual([[0]]);
      expect(await appliedInDatabase(db)).toEqual([[INIT, true, true]]);
    } finally {
      await db.close();
    }
  });

  it('applies a migration once: reopening the same data dir applies none and keeps the data', async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const dataDir = await tempDir();

    const first = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    expect(first.appliedMigrations).toEqual([INIT]);
    expect(await execute(first, 'INSERT INTO items (id, name) VALUES ($1, $2)', ['item-1', 'Espresso'])).toBe(1);
    await first.close();
    await access(join(dataDir, 'shared'));

    const second = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      expect(second.appliedMigrations).toEqual([]);
      expect(await query(second, 'SELECT id, name FROM items')).toEqual([['item-1', 'Espresso']]);
      expect(await appliedInDatabase(second)).toEqual([[INIT, true, true]]);
    } finally {
      await second.close();
    }

    await addMigration(dir, ADD_PRICE, ADD_PRICE_SQL);
    const third = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      expect(third.appliedMigrations).toEqual([ADD_PRICE]);
      expect(await query(third, 'SELECT id, name, price FROM items')).toEqual([['item-1', 'Espresso', 0]]);
    } finally {
      await third.close();
    }
  });

  it('takes the database prepared for its folder: opened and migrated once, while the caller did other work', async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const dataDir = await tempDir();
    prepareDatabase({ service: 'shared', dataDir, prismaDir: dir });
    const db = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      // Opened anew after the prepared open had migrated it, it would find nothing to apply.
      expect(db.appliedMigrations).toEqual([INIT]);
      expect(await execute(db, 'INSERT INTO items (id, name) VALUES ($1, $2)', ['item-1', 'Espresso'])).toBe(1);
    } finally {
      await db.close();
    }
    const reopened = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      expect(reopened.appliedMigrations).toEqual([]);
      expect(await query(reopened, 'SELECT id, name FROM items')).toEqual([['item-1', 'Espresso']]);
    } finally {
      await reopened.close();
    }
  });

  it('closes a database prepared with other migrations before opening its folder with the ones asked for', async () => {
    const dataDir = await tempDir();
    prepareDatabase({ service: 'shared', dataDir, prismaDir: await prismaDir([[INIT, INIT_SQL]]) });
    const db = await openDatabase({
      service: 'shared',
      dataDir,
      prismaDir: await prismaDir([
        [INIT, INIT_SQL],
        [ADD_PRICE, ADD_PRICE_SQL],
      ]),
    });
    try {
      expect(db.appliedMigrations).toEqual([ADD_PRICE]);
      expect(await execute(db, 'INSERT INTO items (id, name, price) VALUES ($1, $2, $3)', ['item-1', 'Espresso', '350'])).toBe(1);
      expect(await query(db, 'SELECT id, name, price FROM items')).toEqual([['item-1', 'Espresso', 350]]);
    } finally {
      await db.close();
    }
  });

  it("answers a statement's error across threads as its driver adapter does: the kind Prisma reads", async () => {
    const db = await openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: await prismaDir([[INIT, INIT_SQL]]) });
    try {
      await execute(db, 'INSERT INTO items (id, name) VALUES ($1, $2)', ['item-1', 'Espresso']);
      const failure = await execute(db, 'INSERT INTO items (id, name) VALUES ($1, $2)', ['item-1', 'Latte']).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({
        name: 'DriverAdapterError',
        cause: { kind: 'UniqueConstraintViolation', constraint: { fields: ['id'] } },
      });
      await expect(query(db, 'SELECT nothing FROM items')).rejects.toMatchObject({ cause: { originalCode: '42703' } });
    } finally {
      await db.close();
    }
  });

  it('checks the record rather than replaying it: pending are the migrations not recorded as applied', async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const dataDir = await tempDir();
    await (await openDatabase({ service: 'shared', dataDir, prismaDir: dir })).close();

    const db = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      expect(await pendingMigrations(db.migrations, dir)).toEqual([]);
      await addMigration(dir, ADD_PRICE, ADD_PRICE_SQL);
      expect(await pendingMigrations(db.migrations, dir)).toEqual([ADD_PRICE]);
      // Edited after it was applied: not applied again, as with prisma migrate deploy.
      await writeFile(join(dir, 'migrations', INIT, 'migration.sql'), `${INIT_SQL}-- edited\n`);
      expect(await pendingMigrations(db.migrations, dir)).toEqual([ADD_PRICE]);
      // Recorded as started and not finished (an earlier version's interrupted apply): the start stops and says what to do.
      await execute(db, 'UPDATE _prisma_migrations SET finished_at = NULL');
    } finally {
      await db.close();
    }
    await expect(openDatabase({ service: 'shared', dataDir, prismaDir: dir })).rejects.toThrow(
      new RegExp(`migration ${INIT} is recorded as started and not finished[\\s\\S]*rolled_back_at`),
    );
  });

  it('counts a database with no migration record as having none applied', async () => {
    const pglite = new PGlite();
    try {
      expect(await pendingMigrations({ embedded: statementsOf(pglite) }, await prismaDir([[INIT, INIT_SQL]]))).toBeUndefined();
    } finally {
      await pglite.close();
    }
  });

  it("starts a new data dir as a copy of the schema's template a test kept: the same migration record, not a new one", async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const recordIn = async (dataDir: string) => {
      const db = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
      try {
        expect(db.appliedMigrations).toEqual([INIT]);
        return await query(db, 'SELECT id, started_at FROM _prisma_migrations');
      } finally {
        await db.close();
      }
    };
    const first = await recordIn(':memory:');
    expect(await recordIn(await tempDir())).toEqual(first);
  });

  it("keeps no schema's template from a data dir's new database: it is migrated from the empty copy, which is kept", async () => {
    await withTempFolder(async () => {
      const db = await openDatabase({ service: 'shared', dataDir: await tempDir(), prismaDir: await prismaDir([[INIT, INIT_SQL]]) });
      try {
        expect(db.appliedMigrations).toEqual([INIT]);
      } finally {
        await db.close();
      }
      const empty = emptyTemplate();
      expect((await readdir(empty.dir)).sort()).toEqual([`${empty.key}.json`, `${empty.key}.tar`]);
    });
  });

  it('leaves a kept copy as it is when another keeps the same one: a copy a reader opened is never replaced', async () => {
    await withTempFolder(async () => {
      const dir = await prismaDir([[INIT, INIT_SQL]]);
      await (await openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: dir })).close();
      const template = await templateOf(dir);
      const tar = join(template.dir, `${template.key}.tar`);
      const before = await stat(tar);
      const another = new PGlite();
      try {
        await another.waitReady;
        await keepTemplate(template, another, [INIT]);
      } finally {
        await another.close();
      }
      const after = await stat(tar);
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
      // Nothing half written is left beside it.
      expect((await readdir(template.dir)).filter((name) => !/\.(tar|json)$/.test(name))).toEqual([]);
    });
  });

  it('copies no template from a folder others may write in: a new data dir is migrated afresh', async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    await withTempFolder(async (temp) => {
      const first = await openDatabase({ service: 'shared', dataDir: await tempDir(), prismaDir: dir });
      const kept = await query(first, 'SELECT id FROM _prisma_migrations');
      await first.close();
      await chmod(join(temp, 'ctk-pglite-templates'), 0o777);
      const second = await openDatabase({ service: 'shared', dataDir: await tempDir(), prismaDir: dir });
      try {
        expect(second.appliedMigrations).toEqual([INIT]);
        expect(await query(second, 'SELECT id FROM _prisma_migrations')).not.toEqual(kept);
      } finally {
        await second.close();
      }
    });
  });

  it("starts a schema's first database from the empty one kept, not from initdb: only its migrations are applied", async () => {
    await withTempFolder(async () => {
      // The empty database kept, with a mark in it that initdb would not make.
      const marked = new PGlite();
      await marked.exec('CREATE TABLE made_from_the_kept_copy (id int)');
      const { dir, key } = emptyTemplate();
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(join(dir, `${key}.tar`), Buffer.from(await (await marked.dumpDataDir('none')).arrayBuffer()));
      await writeFile(join(dir, `${key}.json`), '[]');
      await marked.close();

      for (const dataDir of [await tempDir(), ':memory:']) {
        // Another schema each time (the migration's text differs), so neither has a template of its own yet.
        const migration = `${INIT_SQL}-- for ${dataDir}\n`;
        const db = await openDatabase({ service: 'shared', dataDir, prismaDir: await prismaDir([[INIT, migration]]) });
        try {
          expect(db.appliedMigrations).toEqual([INIT]);
          expect(await query(db, 'SELECT count(*)::int FROM made_from_the_kept_copy')).toEqual([[0]]);
          expect(await query(db, 'SELECT count(*)::int FROM items')).toEqual([[0]]);
        } finally {
          await db.close();
        }
      }
    });
  });

  it('keeps the empty database as initdb made it, before any migration, for the next schema to start from', async () => {
    await withTempFolder(async () => {
      await (await openDatabase({ service: 'shared', dataDir: await tempDir(), prismaDir: await prismaDir([[INIT, INIT_SQL]]) })).close();
      const { dir, key } = emptyTemplate();
      const empty = new PGlite({ loadDataDir: new Blob([await readFile(join(dir, `${key}.tar`))]) });
      try {
        expect((await empty.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows).toEqual([{ n: 0 }]);
      } finally {
        await empty.close();
      }
    });
  });

  it('keeps each service in its own folder of the data dir', async () => {
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const dataDir = await tempDir();
    const books = await openDatabase({ service: 'books', dataDir, prismaDir: dir });
    await execute(books, "INSERT INTO items (id, name) VALUES ('b', 'Ledger')");
    await books.close();
    const pos = await openDatabase({ service: 'pos', dataDir, prismaDir: dir });
    try {
      expect(pos.appliedMigrations).toEqual([INIT]);
      expect(await query(pos, 'SELECT count(*)::int FROM items')).toEqual([[0]]);
    } finally {
      await pos.close();
    }
  });

  it('applies migrations in the order of their names, whatever order they were written in', async () => {
    const dir = await prismaDir([
      [ADD_PRICE, ADD_PRICE_SQL],
      [INIT, INIT_SQL],
    ]);
    const db = await openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: dir });
    try {
      expect(db.appliedMigrations).toEqual([INIT, ADD_PRICE]);
      expect(await query(db, 'SELECT count(price)::int FROM items')).toEqual([[0]]);
    } finally {
      await db.close();
    }
  });

  it("refuses a migration folder whose name is not a migration's, before applying anything", async () => {
    const dir = await prismaDir([[`${INIT}'; DROP TABLE x; --`, INIT_SQL]]);
    await expect(openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: dir })).rejects.toThrow(
      /is not a migration's name \(letters, digits, _, \. and -\)/,
    );
  });

  it('opens a database with no migrations folder, applying nothing', async () => {
    const db = await openDatabase({ service: 'shared', dataDir: ':memory:', prismaDir: await prismaDir([]) });
    try {
      expect(db.appliedMigrations).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('rejects when a migration is broken SQL, and does not record it as applied', async () => {
    const dir = await prismaDir([[INIT, BROKEN_SQL]]);
    const outcome = await openDatabase({ service: 'shared', dataDir: await tempDir(), prismaDir: dir }).then(
      async (db) => {
        const opened = { appliedMigrations: db.appliedMigrations, recorded: await appliedInDatabase(db) };
        await db.close();
        return opened;
      },
      (error: unknown) => ({ rejected: String(error) }),
    );
    expect(outcome).toEqual({ rejected: expect.stringMatching(/syntax error at or near "TABEL"/) });
  });

  it('applies nothing of a migration that fails: the table its first statement made is not there', async () => {
    const dir = await prismaDir([[INIT, BROKEN_SQL]]);
    const dataDir = await tempDir();
    await expect(openDatabase({ service: 'shared', dataDir, prismaDir: dir })).rejects.toThrow(/nothing of it was applied/);
    // The same migration fixed applies: its CREATE TABLE "items" would fail had the broken one's stayed.
    await writeFile(join(dir, 'migrations', INIT, 'migration.sql'), INIT_SQL);
    const db = await openDatabase({ service: 'shared', dataDir, prismaDir: dir });
    try {
      expect(db.appliedMigrations).toEqual([INIT]);
      expect(await appliedInDatabase(db)).toEqual([[INIT, true, true]]);
    } finally {
      await db.close();
    }
  });
});

const POSTGRES_URL = process.env.CTK_TEST_POSTGRES_URL;

describe.skipIf(!POSTGRES_URL)('openDatabase on PostgreSQL', () => {
  async function server<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }
  const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
  const connectionsTo = (url: string) =>
    server(
      async (c) =>
        (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [nameOf(url)])).rows[0]!.n,
    );
  const migrationLocksIn = (url: string) =>
    server(
      async (c) =>
        (
          await c.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND l.objid = $1 AND d.datname = $2`,
            [MIGRATION_LOCK, nameOf(url)],
          )
        ).rows[0]!.n,
    );

  const inDatabase = async <T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };
  const tablesIn = (url: string) =>
    inDatabase(url, async (c) =>
      (await c.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows.map(
        (row) => row.name,
      ),
    );
  const recordsIn = (url: string) =>
    inDatabase(
      url,
      async (c) =>
        (
          await c.query<{ name: string; finished: boolean }>(
            'SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY 1',
          )
        ).rows,
    );

  it('creates a fresh database per call of createTestDatabase', async () => {
    const [a, b] = [await createTestDatabase('shared'), await createTestDatabase('shared')];
    // Within a run of scripts/run-tests.mjs the name carries the run's (CTK_TEST_RUN), which drops it as it ends.
    expect(a).toMatch(/^postgres(ql)?:\/\/.+\/ctk_test_shared_([0-9a-f]{8}_)?[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
    await eventually(async () => expect(await connectionsTo(a!)).toBe(0), 5_000); // a closed backend leaves pg_stat_activity a moment later
  });

  it('applies a migration once: reopening applies none and keeps the data', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const dir = await prismaDir([[INIT, INIT_SQL]]);

    const first = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    expect(first.kind).toBe('postgres');
    expect(first.appliedMigrations).toEqual([INIT]);
    expect(await execute(first, 'INSERT INTO items (id, name) VALUES ($1, $2)', ['item-1', 'Espresso'])).toBe(1);
    await first.close();
    await eventually(async () => expect(await connectionsTo(databaseUrl)).toBe(0), 5_000);

    const second = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    try {
      expect(second.appliedMigrations).toEqual([]);
      expect(await query(second, 'SELECT id, name FROM items')).toEqual([['item-1', 'Espresso']]);
      expect(await appliedInDatabase(second)).toEqual([[INIT, true, true]]);
    } finally {
      await second.close();
    }

    await addMigration(dir, ADD_PRICE, ADD_PRICE_SQL);
    const third = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    try {
      expect(third.appliedMigrations).toEqual([ADD_PRICE]);
      expect(await query(third, 'SELECT id, name, price FROM items')).toEqual([['item-1', 'Espresso', 0]]);
    } finally {
      await third.close();
    }
  });

  it('rejects when a migration is broken SQL, naming the error and the migration', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const dir = await prismaDir([[INIT, BROKEN_SQL]]);
    await expect(openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir })).rejects.toThrow(
      new RegExp(`${INIT}[\\s\\S]*syntax error at or near "TABEL"`),
    );
    // Nothing of it: the table its first statement made, and its record, are not there.
    expect(await tablesIn(databaseUrl)).toEqual(['_prisma_migrations']);
    expect(await recordsIn(databaseUrl)).toEqual([]);
  });

  it('leaves no connection open when a migration fails', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const dir = await prismaDir([[INIT, BROKEN_SQL]]);
    await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir }).catch(() => undefined);
    await eventually(async () => expect(await connectionsTo(databaseUrl)).toBe(0), 5_000);
  });

  it('holds no migration lock once the database is open', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const db = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: await prismaDir([[INIT, INIT_SQL]]) });
    try {
      expect(await migrationLocksIn(databaseUrl)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('lets a second process open the same database promptly while the first is running', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const dir = await prismaDir([[INIT, INIT_SQL]]);
    const first = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    try {
      const started = Date.now();
      const second = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
      await second.close();
      expect(second.appliedMigrations).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await first.close();
    }
  });

  it('migrates once when five replicas start at once on a fresh database: each migration applied by one of them', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const dir = await prismaDir([
      [INIT, INIT_SQL],
      [ADD_PRICE, ADD_PRICE_SQL],
    ]);
    const replicas = await Promise.all(
      Array.from({ length: 5 }, () => openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir })),
    );
    try {
      expect(replicas.flatMap((db) => db.appliedMigrations).sort()).toEqual([INIT, ADD_PRICE]);
      expect(await recordsIn(databaseUrl)).toEqual([
        { name: INIT, finished: true },
        { name: ADD_PRICE, finished: true },
      ]);
      expect(await migrationLocksIn(databaseUrl)).toBe(0);
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
    }
  });

  it('leaves nothing half done when a replica dies mid-migration: the next start applies the whole of it, once', async () => {
    const databaseUrl = (await createTestDatabase('shared'))!;
    const SLOW = `${INIT_SQL}SELECT pg_sleep(30);\n${ADD_PRICE_SQL}`;
    const dir = await prismaDir([[INIT, SLOW]]);
    const first = openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    const outcome = first.then(
      () => 'opened',
      (error: unknown) => String(error),
    );
    // The replica's session ends while the migration runs, as when its process is killed.
    const migrating = () =>
      server(
        async (c) =>
          (await c.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep(30)%'", [nameOf(databaseUrl)]))
            .rows,
      );
    await eventually(async () => expect(await migrating()).toHaveLength(1), 10_000);
    await server((c) =>
      c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE $2', [
        nameOf(databaseUrl),
        '%pg_sleep(30)%',
      ]),
    );
    expect(await outcome).toMatch(/nothing of it was applied/);
    expect(await tablesIn(databaseUrl)).toEqual(['_prisma_migrations']);
    expect(await recordsIn(databaseUrl)).toEqual([]);

    await writeFile(join(dir, 'migrations', INIT, 'migration.sql'), `${INIT_SQL}${ADD_PRICE_SQL}`);
    const next = await openDatabase({ service: 'shared', databaseUrl, dataDir: ':memory:', prismaDir: dir });
    try {
      expect(next.appliedMigrations).toEqual([INIT]);
      expect(await query(next, 'SELECT count(price)::int FROM items')).toEqual([[0]]);
      expect(await recordsIn(databaseUrl)).toEqual([{ name: INIT, finished: true }]);
    } finally {
      await next.close();
    }
  });
});
