import type { GatePayment as GatePaymentMessage, GateResource as GateResourceMessage } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { GatePayment, GateResource } from '../generated/prisma/client.js';

export function gateResourceMessage(resource: GateResource): GateResourceMessage {
  return {
    id: resource.id,
    method: resource.method,
    path: resource.path,
    priceSatoshis: resource.priceSatoshis,
    grant: {
      kind:
        resource.grantKind === 'window'
          ? { $case: 'window', value: { seconds: resource.grantSeconds ?? 0 } }
          : { $case: 'calls', value: { calls: resource.grantCalls ?? 0 } },
    },
    description: resource.description,
    createdAt: resource.createdAt.toISOString(),
  };
}

/** A payment as the contract gives it: what it does not have is absent (the API's null), not '' or -1. */
export function gatePaymentMessage(payment: GatePayment, payTo: string | undefined): GatePaymentMessage {
  return {
    id: payment.id,
    resourceId: payment.resourceId,
    method: payment.method,
    path: payment.path,
    txid: payment.txid,
    vout: payment.vout,
    satoshis: payment.satoshis,
    protocol: payment.protocol,
    payer: payment.payer || undefined,
    calls: payment.calls ?? undefined,
    callsUsed: payment.callsUsed,
    expiresAt: payment.expiresAt.toISOString(),
    createdAt: payment.createdAt.toISOString(),
    payTo: payTo || undefined,
    derivationIndex: payment.derivationIndex ?? undefined,
    derivationPrefix: payment.derivationPrefix ?? undefined,
    derivationSuffix: payment.derivationSuffix ?? undefined,
    priceSatoshis: payment.priceSatoshis,
    overpaid: payment.satoshis > payment.priceSatoshis,
  };
}
