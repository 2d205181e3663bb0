import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * A secret key of pos's (the pay-link signing key, the card identifier key): `configured` (hex) when set,
 * else 32 bytes made on first use and kept in pos's database under `name`, so that every pos process on
 * that database uses the same one and a restart keeps it. Of two processes making it at once, the first
 * insert wins and both read that one. A key is never logged nor answered.
 */
export function keptKey(prisma: PrismaClient, name: string, configured: string | undefined): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async (): Promise<Buffer> => {
    if (configured) return Buffer.from(configured, 'hex');
    await prisma.signingKey.createMany({ data: [{ name, secret: randomBytes(32) }], skipDuplicates: true });
    const row = await prisma.signingKey.findUniqueOrThrow({ where: { name } });
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
