import { addressOfScript } from '@ctk/chain';
import type { CheckGateRequestRequest, CheckGateRequestResponse, GateRefusal } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, pricingResource, validate } from '@ctk/shared';
import { z } from 'zod';
import { findLiveResources } from '../data/gate-resource-repository.js';
import { acceptGatePayment } from './accept-gate-payment.js';
import { accountOf } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import { gatePaymentMessage, gateResourceMessage } from './gate-messages.js';
import { compressedKeyOrNone } from './gate-request-fields.js';
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

const URL_RULE = 'url must be the URL the request was sent to: absolute http(s), or a path from "/"';
const header = z.string().max(8_192).optional();
/** The payment headers a resource server passes on, lower-case: any other is refused, so nothing else leaks to the gate. */
const PAYMENT_HEADERS = ['x-bsv-beef', 'x-bsv-sender', 'x-bsv-nonce', 'x-bsv-time', 'x-bsv-vout', 'payment-signature', 'x-ctk-credential'];

const checkSchema = z.object({
  method: z.string().regex(/^[A-Z]{1,20}$/, 'method must be the request method in upper case (GET, POST, ...)'),
  url: z.string().max(4096, 'url must be at most 4096 characters').refine(isRequestUrl, URL_RULE),
  // A BEEF is as long as the message to p2p may be; the other headers are short.
  headers: z.strictObject(
    Object.fromEntries(
      PAYMENT_HEADERS.map((name) => [name, name === 'x-bsv-beef' || name === 'payment-signature' ? z.string().optional() : header]),
    ),
  ),
  payeeKey: compressedKeyOrNone('payee_key'),
});

/**
 * Whether a request a resource server received is paid: `free` when no priced resource matches its method
 * and path; `paid` with a valid credential (one call counted) or a valid payment (verified, broadcast,
 * recorded, and a credential issued; or, offered again, the payment recorded and its credential, one call
 * counted); otherwise `payment_required` with a new payment request, naming what
 * was offered and refused.
 */
export async function checkGateRequest(deps: GateDeps, request: CheckGateRequestRequest): Promise<CheckGateRequestResponse> {
  const account = accountOf(request.account);
  const { account: _account, ...fields } = request;
  const { payeeKey } = validate(checkSchema, fields, 'check');
  const path = pathOfUrl(request.url);
  // The same choice as the merchant's middleware makes for a credential it checks itself.
  const resources = await findLiveResources(deps.prisma, account.id);
  const resource = pricingResource(resources, request.method, path);
  if (!resource) return { outcome: 'free', status: 200, headers: {} };

  let refusal: GateRefusal | undefined;
  const token = request.headers['x-ctk-credential'];
  if (token) {
    const use = await useCredential(deps, account, resource, token);
    if ('payment' in use)
      return {
        outcome: 'paid',
        status: 200,
        headers: {},
        payment: paymentOf(deps, use.payment),
        resource: gateResourceMessage(resource),
      };
    refusal = { code: 'payment_required', message: use.refused };
  }
  try {
    const offered = offeredPayment(request.headers);
    if (offered) {
      if (offered.protocol === 'brc121' && payeeKey) offered.payeeKey = payeeKey;
      // A client retries what got no answer: the same payment offered again is answered as it was (accept-gate-payment.ts).
      const { payment, credential } = await acceptGatePayment(deps, account, offered, resource, { answerResend: true });
      const response = { success: true, transaction: payment.txid, network: deps.network, payer: payment.payer || undefined };
      return {
        outcome: 'paid',
        status: 200,
        headers: { 'payment-response': Buffer.from(JSON.stringify(response)).toString('base64'), 'x-ctk-credential': credential.token },
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
  return { outcome: 'payment_required', status: 402, headers, body, refusal, resource: gateResourceMessage(resource) };
}

function paymentOf(deps: GateDeps, payment: Parameters<typeof gatePaymentMessage>[0]) {
  return gatePaymentMessage(payment, addressOfScript(payment.script, deps.chain.network));
}

/** A request target: an absolute http(s) URL, or a path from "/" (not "//", which names a host); no spaces or controls. */
function isRequestUrl(url: string): boolean {
  if (/[\s\p{Cc}]/u.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
