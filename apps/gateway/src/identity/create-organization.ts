import { AppError, isUniqueViolation } from '@ctk/shared';
import type { Prisma } from '../generated/prisma/client.js';
import { handleFromName, organizationData, type OrganizationFields } from './organization-fields.js';

/**
 * Creates an organisation (its id chosen by the caller, who has had the owners check their facts of it)
 * with the user as its owner, inside the caller's transaction. Without a
 * handle, one is derived from the name and made unique; a handle asked for and taken is a 409.
 */
export async function createOrganization(tx: Prisma.TransactionClient, userId: string, fields: OrganizationFields, id: string) {
  const handle = fields.handle ?? (await freeHandle(tx, handleFromName(fields.name)));
  try {
    return await tx.organization.create({
      data: {
        ...organizationData(fields),
        id,
        name: fields.name,
        handle,
        memberships: { create: { userId, role: 'owner' } },
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const field = (error as { meta?: { target?: unknown } }).meta?.target;
      const what = String(field ?? '').includes('paymail') ? `paymail alias "${fields.paymail_alias}"` : `handle "${handle}"`;
      throw new AppError('already_exists', `The ${what} is taken; choose another.`);
    }
    throw error;
  }
}

async function freeHandle(tx: Prisma.TransactionClient, base: string): Promise<string> {
  const taken = new Set(
    (await tx.organization.findMany({ where: { handle: { startsWith: base } }, select: { handle: true } })).map((o) => o.handle),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
