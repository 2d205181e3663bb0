import { AppError, isUniqueViolation } from '@ctk/shared';
import type { Role } from '../catalog/endpoints.js';
import type { AccessOrg } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import type { Membership, Prisma, User } from '../generated/prisma/client.js';
import { issueApiKey } from './issue-api-key.js';
import { newestFirst, toPage, type PageQuery } from '../routes/pagination.js';

export type NewMember = { role: Role } & ({ user_id: string } | { name: string; email?: string | undefined });

/**
 * Members and roles. Admins manage staff and admins; only an owner grants, changes or removes the
 * owner role; the last owner can be neither demoted nor removed.
 */
export async function addMember(deps: GatewayDeps, org: AccessOrg, input: NewMember) {
  assertMayAssign(org, input.role);
  const result = await deps.prisma.$transaction(async (tx) => {
    let userId: string;
    let apiKey;
    if ('user_id' in input) {
      const user = await tx.user.findUnique({ where: { id: input.user_id } });
      if (!user) throw new AppError('not_found', 'No user with this id: they can find their id with GET /api/v1/me.');
      userId = user.id;
    } else {
      const user = await tx.user.create({ data: { name: input.name, email: input.email ?? null } }).catch((error: unknown) => {
        if (isUniqueViolation(error))
          throw new AppError('already_exists', 'A user with this email already exists: add them by user_id instead.');
        throw error;
      });
      userId = user.id;
      apiKey = await issueApiKey(tx, userId, `member of ${org.handle}`);
    }
    try {
      const membership = await tx.membership.create({
        data: { userId, organizationId: org.id, role: input.role },
        include: { user: true },
      });
      return { member: memberOf(membership), apiKey };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('already_exists', 'This user is already a member; change their role instead.');
      throw error;
    }
  });
  deps.credentials.forget();
  return result;
}

export async function listMembers(deps: GatewayDeps, org: AccessOrg, page: PageQuery) {
  const rows = await deps.prisma.membership.findMany({ ...newestFirst(page, { organizationId: org.id }), include: { user: true } });
  return toPage(rows, page.limit, memberOf);
}

export async function changeMemberRole(deps: GatewayDeps, org: AccessOrg, userId: string, role: Role) {
  const result = await deps.prisma.$transaction(
    async (tx) => {
      const membership = await findMembership(tx, org, userId);
      assertMayAssign(org, membership.role);
      assertMayAssign(org, role);
      if (membership.role === 'owner' && role !== 'owner') await assertNotLastOwner(tx, org);
      const updated = await tx.membership.update({ where: { id: membership.id }, data: { role }, include: { user: true } });
      return { member: memberOf(updated) };
    },
    { isolationLevel: 'Serializable' },
  );
  deps.credentials.forget();
  return result;
}

export async function removeMember(deps: GatewayDeps, org: AccessOrg, userId: string) {
  await deps.prisma.$transaction(
    async (tx) => {
      const membership = await findMembership(tx, org, userId);
      assertMayAssign(org, membership.role);
      if (membership.role === 'owner') await assertNotLastOwner(tx, org);
      await tx.membership.delete({ where: { id: membership.id } });
    },
    { isolationLevel: 'Serializable' },
  );
  deps.credentials.forget();
  return { userId, removed: true };
}

function assertMayAssign(org: AccessOrg, role: Role) {
  if (role === 'owner' && org.role !== 'owner')
    throw new AppError('forbidden', 'Only an owner can grant, change or remove the owner role.');
}

async function findMembership(tx: Prisma.TransactionClient, org: AccessOrg, userId: string) {
  const membership = await tx.membership.findUnique({ where: { userId_organizationId: { userId, organizationId: org.id } } });
  if (!membership) throw new AppError('not_found', `This user is not a member of "${org.handle}".`);
  return membership;
}

async function assertNotLastOwner(tx: Prisma.TransactionClient, org: AccessOrg) {
  const owners = await tx.membership.count({ where: { organizationId: org.id, role: 'owner' } });
  if (owners <= 1) throw new AppError('failed_precondition', 'An organisation keeps at least one owner: make someone else owner first.');
}

/** A membership as the contract's Member: the user's name, email and did beside the membership's role and date. */
function memberOf(membership: Membership & { user: User }) {
  return { ...membership.user, ...membership };
}
