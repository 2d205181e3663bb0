import { AppError } from '@ctk/shared';
import { displayPrefix, hashSecret, KEY_PREFIX, newSecret } from '../auth/secrets.js';
import type { AccessOrg } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { newestFirst, toPage, type PageQuery } from '../routes/pagination.js';

/** The commerce public key is publishable (it goes into the merchant's web page); rotating it retires the old one at once. */
export async function rotateCommerceKey(deps: GatewayDeps, org: AccessOrg) {
  const key = newSecret(KEY_PREFIX.commerce);
  await deps.prisma.organization.update({ where: { id: org.id }, data: { commercePublicKey: key } });
  deps.credentials.forget();
  return { commercePublicKey: key };
}

/** Payment-gate account keys: stored hashed, shown once, each with its name; one account per organisation, made on first use. */
export async function createPaygateKey(deps: GatewayDeps, org: AccessOrg, name: string) {
  const secret = newSecret(KEY_PREFIX.paygate);
  const key = await deps.prisma.$transaction(async (tx) => {
    const account =
      (await tx.paygateAccount.findFirst({ where: { organizationId: org.id } })) ??
      (await tx.paygateAccount.create({ data: { organizationId: org.id, name } }));
    return tx.paygateKey.create({ data: { accountId: account.id, name, prefix: displayPrefix(secret), hash: hashSecret(secret) } });
  });
  return { ...key, key: secret };
}

export async function listPaygateKeys(deps: GatewayDeps, org: AccessOrg, page: PageQuery) {
  const rows = await deps.prisma.paygateKey.findMany(newestFirst(page, { account: { organizationId: org.id } }));
  return toPage(rows, page.limit, (key) => key);
}

export async function revokePaygateKey(deps: GatewayDeps, org: AccessOrg, keyId: string) {
  const revoked = await deps.prisma.paygateKey.updateMany({
    where: { id: keyId, account: { organizationId: org.id }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (revoked.count === 0) throw new AppError('not_found', 'No active payment-gate key with this id in this organisation.');
  deps.credentials.forget();
  return { id: keyId, revoked: true };
}
