import { addressOfScript } from '@ctk/chain';
import type { CheckGateRequestRequest, CheckGateRequestResponse, GateRefusal } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, pricingResource } from '@ctk/shared';
import { findLiveResources } from '../data/gate-resource-repository.js';
import { acceptGatePayment } from './accept-gate-payment.js';
import { accountOf } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import { gatePaymentMessage, gateResourceMessage } from './gate-messages.js';
import { issuePaymentRequest } from './issue-payment-request.js';
import { offeredPayment } from './offered-payment.js';
import { paymentRequired } from './payment-required.js';
import { pathOfUrl } from './resource-path.js';
import { useCredential } from './use-credential.js';

/** Refusals a payer can act on; anything else (the chain unreachable, a fault) fails the check itself. */
const PAYER_ERRORS = new Set([
  'validation_failed',
  'payment_invalid',
  'payment_expired',
  'payment_underpaid',
  'payment_wrong_output',
  'txid_already_used',
  'chain_rejected',
  'conflict',
]);

/**
 * Whether a request a resource server received is paid: `free` when no priced resource matches its method
 * and path; `paid` with a valid credential (one call counted) or a valid payment (verified, broadcast,
 * recorded, and a credential issued); otherwise `payment_required` with a new payment request, naming what
 * was offered and refused.
 */
export async function checkGateRequest(deps: GateDeps, request: CheckGateRequestRequest): Promise<CheckGateRequestResponse> {
  const account = accountOf(request.account);
  const path = pathOfUrl(request.url);
  // The same choice as the merchant's middleware makes for a credential it checks itself.
  const resources = await findLiveResources(deps.prisma, account.id);
  const resource = pricingResource(resources, request.method, path);
  if (!resource) return { outcome: 'free', status: 200, headers: {}, bodyJson: '' };

  let refusal: GateRefusal | undefined;
  const token = request.headers['x-ctk-credential'];
  if (token) {
    const use = await useCredential(deps, account, resource, token);
    if ('payment' in use)
      return {
        outcome: 'paid',
        status: 200,
        headers: {},
        bodyJson: '',
        payment: paymentOf(deps, use.payment),
        resource: gateResourceMessage(resource),
      };
    refusal = { code: 'payment_required', message: use.refused };
  }
  try {
    const offered = offeredPayment(request.headers);
    if (offered) {
      if (offered.protocol === 'brc121' && request.payeeKey) offered.payeeKey = request.payeeKey;
      const { payment, credential } = await acceptGatePayment(deps, account, offered, resource);
      const response = { success: true, transaction: payment.txid, network: deps.network, payer: payment.payer || undefined };
      return {
        outcome: 'paid',
        status: 200,
        headers: { 'payment-response': Buffer.from(JSON.stringify(response)).toString('base64'), 'x-ctk-credential': credential.token },
        bodyJson: '',
        credential,
        payment: paymentOf(deps, payment),
        resource: gateResourceMessage(resource),
      };
    }
  } catch (error) {
    if (!AppError.is(error) || !PAYER_ERRORS.has(error.code)) throw error;
    refusal = { code: error.code, message: error.message };
  }
  const offer = await issuePaymentRequest(deps, account, resource, request.url);
  const { headers, body } = paymentRequired(offer, refusal ? `${refusal.code}: ${refusal.message}` : 'Payment required');
  return { outcome: 'payment_required', status: 402, headers, bodyJson: body, refusal, resource: gateResourceMessage(resource) };
}

function paymentOf(deps: GateDeps, payment: Parameters<typeof gatePaymentMessage>[0]) {
  return gatePaymentMessage(payment, addressOfScript(payment.script, deps.chain.network));
}
