import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { FastifyRequest } from 'fastify';
import type { OrgContext } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { callOptions, orgRef } from '../routes/service-call.js';
import { capabilityDescriptor, NOT_BUILT } from './capability-descriptor.js';

type Setup = { setUp: boolean | null; nextStep: string | null };
const setup = (done: boolean, step: string | null): Setup => ({ setUp: done, nextStep: done ? null : step });

/**
 * `GET /api/v1/orgs/:handle/capabilities`, as the contract's PersonalizedCapabilities takes it: the
 * capability map marked with what this organisation has set up (the gateway's own facts, and each
 * service's answer to GetSetup, asked in parallel) and the next thing to do. A service that does not
 * answer leaves its capabilities `set_up: null`.
 */
export async function personalizedCapabilities(
  deps: GatewayDeps,
  request: FastifyRequest,
  org: OrgContext,
  implemented: ReadonlySet<string>,
) {
  const [gateway, services] = await Promise.all([gatewayFacts(deps, org), askServices(deps, request, org)]);
  const descriptor = capabilityDescriptor(implemented);
  const rungs = descriptor.rungs.map((rung) => ({
    ...rung,
    capabilities: rung.capabilities.map((capability) => ({
      ...capability,
      ...merge(gateway.get(capability.id), services.get(capability.id)),
    })),
  }));
  // The next step is the first one in step order that can be taken on this instance (no "not built" note).
  const todo = rungs.flatMap((rung) => rung.capabilities).filter((c) => c.setUp === false && c.nextStep);
  const first = todo.find((c) => !c.note?.startsWith(NOT_BUILT)) ?? todo[0];
  const next = first ? { capability: first.id, nextStep: first.nextStep } : null;
  return { organization: org.handle, ...descriptor, rungs, next };
}

async function gatewayFacts(deps: GatewayDeps, org: OrgContext): Promise<Map<string, Setup>> {
  const row = await deps.prisma.organization.findUniqueOrThrow({
    where: { id: org.id },
    include: { paygateAccounts: { select: { id: true } }, memberships: { where: { user: { did: { not: null } } }, select: { id: true } } },
  });
  return new Map([
    [
      'commerce_api',
      setup(
        row.commercePublicKey !== null,
        `Create your commerce public key for the Buy button: POST /api/v1/orgs/${org.handle}/commerce-key.`,
      ),
    ],
    ['paymail', setup(row.paymailAlias !== null, `Choose a paymail alias: PATCH /api/v1/organizations/${org.handle} with paymail_alias.`)],
    [
      'keypair_identity',
      setup(row.memberships.length > 0, 'Sign in with a key you hold (did:key): POST /api/auth/challenge, then POST /api/auth/verify.'),
    ],
    ['paygate_402', setup(row.paygateAccounts.length > 0, `Create a payment-gate key: POST /api/v1/orgs/${org.handle}/paygate-keys.`)],
  ]);
}

async function askServices(deps: GatewayDeps, request: FastifyRequest, org: OrgContext): Promise<Map<string, Setup>> {
  const options = { ...callOptions(request), timeoutMs: 2_000 };
  const ref = { org: orgRef(org) };
  const answers = await Promise.allSettled(Object.values(deps.services).map((client) => client.getSetup(ref, options)));
  const setups = new Map<string, Setup>();
  for (const answer of answers) {
    if (answer.status !== 'fulfilled') continue;
    for (const c of answer.value.capabilities as CapabilitySetup[]) setups.set(c.capabilityId, setup(c.setUp, c.nextStep || null));
  }
  return setups;
}

/** Both must be done; the gateway's step (a prerequisite) comes first. Unknown when no one answered. */
function merge(gateway: Setup | undefined, service: Setup | undefined): Setup {
  if (gateway?.setUp === false) return gateway;
  return service ?? gateway ?? { setUp: null, nextStep: null };
}
