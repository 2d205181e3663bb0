import type { PrismaClient } from '../data/prisma.js';
import { hashSecret, KEY_PREFIX } from './secrets.js';
import { TtlCache } from './ttl-cache.js';
import type { OrgContext } from './types.js';
import type { Role } from '../catalog/endpoints.js';

type UserKey = { userId: string; apiKeyId: string };
type KeptUserKey = UserKey & { expiresAt: Date | null };
type PaygateKey = { accountId: string; keyId: string; organizationId: string };
type Org = Omit<OrgContext, 'role'>;
/** How a customer's page names the shop (orders/order-merchant.ts). */
export type ShopName = { name: string; paymailAlias: string | null };

/** Runs before a credential is looked up in the database (not when it is served from memory): may refuse with 429. */
export type BeforeLookup = () => Promise<void>;
/** What a request knows of an organisation it resolved (its settings are each service's: decision 0028). */
const ORG: { [field in keyof Org]: true } = { id: true, handle: true, name: true };

/**
 * Resolves credentials and memberships, each from one indexed lookup by hash, kept briefly in memory
 * (the hot path of every authenticated request). Any change to keys or memberships calls `forget()`.
 * A key not in memory costs its sender's address one lookup of its allowance (`beforeLookup`), so
 * random keys cannot buy unbounded database lookups.
 */
export class Credentials {
  private readonly userKeys: TtlCache<KeptUserKey | null>;
  private readonly paygateKeys: TtlCache<PaygateKey | null>;
  private readonly commerceKeys: TtlCache<Org | null>;
  private readonly orgs: TtlCache<Org | null>;
  private readonly shopNames: TtlCache<ShopName | null>;
  private readonly roles: TtlCache<Role | null>;

  constructor(
    private readonly prisma: PrismaClient,
    cacheSeconds: number,
  ) {
    const ttl = cacheSeconds * 1000;
    this.userKeys = new TtlCache(ttl);
    this.paygateKeys = new TtlCache(ttl);
    this.commerceKeys = new TtlCache(ttl);
    this.orgs = new TtlCache(ttl);
    this.shopNames = new TtlCache(ttl);
    this.roles = new TtlCache(ttl);
  }

  /** The user and key of a user's API key that works: not revoked, and not past its expiry (checked at each use). */
  async userKey(secret: string, beforeLookup: BeforeLookup): Promise<UserKey | null> {
    if (!secret.startsWith(KEY_PREFIX.user)) return null;
    const hash = hashSecret(secret);
    const key = await this.userKeys.get(hash, async () => {
      await beforeLookup();
      const found = await this.prisma.apiKey.findUnique({
        where: { hash },
        select: { id: true, userId: true, revokedAt: true, expiresAt: true },
      });
      return found && !found.revokedAt ? { userId: found.userId, apiKeyId: found.id, expiresAt: found.expiresAt } : null;
    });
    return key && (!key.expiresAt || key.expiresAt > new Date()) ? { userId: key.userId, apiKeyId: key.apiKeyId } : null;
  }

  paygateKey(secret: string, beforeLookup: BeforeLookup): Promise<PaygateKey | null> {
    if (!secret.startsWith(KEY_PREFIX.paygate)) return Promise.resolve(null);
    const hash = hashSecret(secret);
    return this.paygateKeys.get(hash, async () => {
      await beforeLookup();
      const key = await this.prisma.paygateKey.findUnique({ where: { hash }, include: { account: true } });
      return key && !key.revokedAt ? { accountId: key.accountId, keyId: key.id, organizationId: key.account.organizationId } : null;
    });
  }

  commerceKey(key: string, beforeLookup: BeforeLookup): Promise<Org | null> {
    if (!key.startsWith(KEY_PREFIX.commerce)) return Promise.resolve(null);
    return this.commerceKeys.get(key, async () => {
      await beforeLookup();
      return this.prisma.organization.findUnique({ where: { commercePublicKey: key }, select: ORG });
    });
  }

  org(handle: string): Promise<Org | null> {
    return this.orgs.get(handle, () => this.prisma.organization.findUnique({ where: { handle }, select: ORG }));
  }

  /** The organisation of an id another service answered (a pay link's): public routes that know no handle. */
  orgById(id: string): Promise<Org | null> {
    return this.orgs.get(`id:${id}`, () => this.prisma.organization.findUnique({ where: { id }, select: ORG }));
  }

  /** The organisation whose paymail alias this is (the part before the @). */
  orgByPaymailAlias(alias: string): Promise<Org | null> {
    return this.orgs.get(`paymail:${alias}`, () => this.prisma.organization.findUnique({ where: { paymailAlias: alias }, select: ORG }));
  }

  /** The shop's name and paymail alias, as every read of one of its orders shows them. */
  shopName(handle: string): Promise<ShopName | null> {
    return this.shopNames.get(handle, () =>
      this.prisma.organization.findUnique({ where: { handle }, select: { name: true, paymailAlias: true } }),
    );
  }

  /** The organisation's payment-gate account (one per organisation, made with its first key), if it has one. */
  async paygateAccountId(organizationId: string): Promise<string | null> {
    const account = await this.prisma.paygateAccount.findFirst({ where: { organizationId }, select: { id: true } });
    return account?.id ?? null;
  }

  role(userId: string, organizationId: string): Promise<Role | null> {
    return this.roles.get(`${userId}:${organizationId}`, async () => {
      const membership = await this.prisma.membership.findUnique({
        where: { userId_organizationId: { userId, organizationId } },
        select: { role: true },
      });
      return membership?.role ?? null;
    });
  }

  /** Drops everything cached: called after any change to keys, organisations or memberships. */
  forget(): void {
    for (const cache of [this.userKeys, this.paygateKeys, this.commerceKeys, this.orgs, this.shopNames, this.roles]) cache.clear();
  }
}
