import { randomBytes } from 'node:crypto';

/** The table an app keeps its own keys in (a Prisma model with `name` as its id and `secret` bytes). */
export type KeyTable = {
  createMany(args: { data: { name: string; secret: Uint8Array<ArrayBuffer> }[]; skipDuplicates: true }): Promise<unknown>;
  findUniqueOrThrow(args: { where: { name: string } }): Promise<{ secret: Uint8Array }>;
};

/**
 * A secret key of an app's (pos's pay-link signing key and card identifier key, commerce's provider
 * secrets key): `configured` (hex) when set, else 32 bytes made on first use and kept in the app's database
 * under `name`, so that every process on that database uses the same one and a restart keeps it. Of two
 * processes making it at once, the first insert wins and both read that one. Read once, then held; a
 * failed read is tried again on the next call. A key is never logged nor answered.
 */
export function keptKey(table: KeyTable, name: string, configured: string | undefined): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async (): Promise<Buffer> => {
    if (configured) return Buffer.from(configured, 'hex');
    await table.createMany({ data: [{ name, secret: new Uint8Array(randomBytes(32)) }], skipDuplicates: true });
    const row = await table.findUniqueOrThrow({ where: { name } });
    return Buffer.from(row.secret);
  };
  return () => {
    key ??= load().catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}
