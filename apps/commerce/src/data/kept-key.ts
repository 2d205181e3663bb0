import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * A secret key of commerce's: `configured` (hex) when set, else 32 bytes made on first use and kept in
 * commerce's database under `name` (the first insert wins), as pos keeps its own. Never logged nor answered.
 */
export function keptKey(prisma: PrismaClient, name: string, configured: string | undefined): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async (): Promise<Buffer> => {
    if (configured) return Buffer.from(configured, 'hex');
    await prisma.commerceKey.createMany({ data: [{ name, secret: randomBytes(32) }], skipDuplicates: true });
    const row = await prisma.commerceKey.findUniqueOrThrow({ where: { name } });
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
