import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';

const KEY_NAME = 'pay_link_hmac';

/**
 * pos's pay-link signing key: `POS_PAY_LINK_KEY` (hex) when configured, else one made on first use and
 * kept in pos's database, so that every pos process on that database signs alike and a restart keeps
 * links valid. Of two processes making it at once, the first insert wins and both read that one.
 * The key is never logged nor answered.
 */
export function payLinkKey(prisma: PrismaClient, configured: string | undefined): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async (): Promise<Buffer> => {
    if (configured) return Buffer.from(configured, 'hex');
    await prisma.signingKey.createMany({ data: [{ name: KEY_NAME, secret: randomBytes(32) }], skipDuplicates: true });
    const row = await prisma.signingKey.findUniqueOrThrow({ where: { name: KEY_NAME } });
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
