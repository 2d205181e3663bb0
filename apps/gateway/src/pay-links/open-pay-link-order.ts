import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, type CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { orgRef } from '../routes/service-call.js';

/**
 * A payer opens an order from a public link: pos names the link's organisation, the gateway resolves it
 * to its id and handle (pos asks p2p for its wallet and books for its tax settings, as for staff's orders,
 * decision 0028), and pos opens the order at the link's signed terms. A link whose organisation is gone is not found. The payer's client
 * address goes with it: pos bounds what one address holds of a limited link (decision 0024).
 */
export async function openPayLinkOrder(
  deps: GatewayDeps,
  input: { id: string; amountMinor: bigint; clientAddress: string },
  options: CallOptions,
): Promise<Order | undefined> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const { payLink } = await deps.services.pos.getPayLink({ id: input.id, publicUrl }, options);
  const org = payLink && (await deps.credentials.orgById(payLink.organizationId));
  if (!org) throw new AppError('not_found', 'No such pay link');
  const response = await deps.services.pos.openPayLinkOrder(
    { org: orgRef({ ...org, role: null }), id: input.id, amountMinor: input.amountMinor, publicUrl, clientAddress: input.clientAddress },
    options,
  );
  return response.order;
}
