import { hashSecret } from '../auth/secrets.js';
import type { PrismaClient } from '../data/prisma.js';
import type { SecretKind } from '../routes/route-definition.js';

/** Whether a key handed out earlier still works: not revoked, or (a commerce key) not rotated away. */
export async function secretIsLive(prisma: PrismaClient, kind: SecretKind, value: string): Promise<boolean> {
  switch (kind) {
    case 'api_key': {
      const key = await prisma.apiKey.findUnique({ where: { hash: hashSecret(value) }, select: { revokedAt: true } });
      return key !== null && key.revokedAt === null;
    }
    case 'paygate_key': {
      const key = await prisma.paygateKey.findUnique({ where: { hash: hashSecret(value) }, select: { revokedAt: true } });
      return key !== null && key.revokedAt === null;
    }
    case 'commerce_key':
      return (await prisma.organization.count({ where: { commercePublicKey: value } })) > 0;
    // A card identifier re-keyed since spends nothing, and the card lives in pos: the replay carries it as answered.
    case 'card_identifier':
      return true;
  }
}
