import type { CheckGateRequestResponse, GateResource } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import type { gateCheck, gateResource } from './paygate-answers.js';

type Method = z.output<typeof gateResource>['method'];

export function gateResourceView(resource: GateResource | undefined): z.output<typeof gateResource> {
  if (!resource) throw new AppError('internal', 'p2p answered without the priced resource');
  return {
    id: resource.id,
    method: resource.method as Method,
    path: resource.path,
    price_satoshis: Number(resource.priceSatoshis),
    grant:
      resource.grantKind === 'window' ? { kind: 'window', seconds: resource.grantSeconds } : { kind: 'calls', calls: resource.grantCalls },
    description: resource.description,
    created_at: resource.createdAt,
  };
}

/** The answer to /check: what the resource server does, with the x402 document parsed for a 402. */
export function gateCheckView(check: CheckGateRequestResponse): z.output<typeof gateCheck> {
  return {
    outcome: check.outcome as z.output<typeof gateCheck>['outcome'],
    status: check.status as 200 | 402,
    headers: check.headers,
    ...(check.bodyJson ? { body: parseDocument(check.bodyJson) } : {}),
    ...(check.refusal ? { refusal: { code: check.refusal.code, message: check.refusal.message } } : {}),
    ...(check.credential ? { credential: toJson(messageDesc('ctk.p2p.v1.GateCredential'), check.credential as never) } : {}),
    ...(check.payment ? { payment: toJson(messageDesc('ctk.p2p.v1.GatePayment'), check.payment as never) } : {}),
  };
}

function parseDocument(json: string): NonNullable<z.output<typeof gateCheck>['body']> {
  try {
    return JSON.parse(json) as NonNullable<z.output<typeof gateCheck>['body']>;
  } catch {
    throw new AppError('internal', 'p2p answered a 402 document that is not JSON');
  }
}
