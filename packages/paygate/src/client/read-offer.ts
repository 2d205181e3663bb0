import { P2PKH, PublicKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { PAYMENT_REQUIRED_HEADER } from '../headers.js';

/** An x402 v2 `accepts` entry (only the fields this client reads; the rest is sent back as received). */
const requirementSchema = z.looseObject({
  scheme: z.string(),
  network: z.string(),
  amount: z.string().regex(/^\d{1,15}$/),
  asset: z.string().optional(),
  payTo: z.string().optional(),
  extra: z
    .looseObject({
      lockingScript: z
        .string()
        .regex(/^(?:[0-9a-f]{2})+$/i)
        .optional(),
    })
    .optional(),
});

const paymentRequiredSchema = z.looseObject({ x402Version: z.number(), resource: z.unknown().optional(), accepts: z.array(z.unknown()) });
export type X402PaymentRequired = z.infer<typeof paymentRequiredSchema>;

/** What a 402 asks for, in the form the client pays it. */
export type PaymentOffer = {
  /** `x402`: retry with `payment-signature`; `brc121`: retry with the five `x-bsv-*` headers. */
  scheme: 'x402' | 'brc121';
  satoshis: number;
  /** The output to pay, hex. */
  lockingScript: string;
  /** BRC-121's `x-bsv-server`: the key whose P2PKH (or, with the payer's identity key, whose BRC-42 child) is paid. */
  serverKey?: string;
  /** x402's network (`bsv:mainnet`, `bsv:testnet`, `bsv:local`); BRC-121 names none. */
  network?: string;
  /** x402: the PaymentRequired and the `accepts` entry chosen, echoed in the payment. */
  paymentRequired?: X402PaymentRequired;
  accepted?: unknown;
};

/**
 * Reads a 402: the x402 `payment-required` header (base64 JSON) first, else an x402 body, else BRC-121's
 * `x-bsv-sats` and `x-bsv-server` (pay P2PKH of that key, as the contract says). Undefined when the 402
 * offers neither; an AppError when it offers x402 payments of which none can be made here.
 */
export function readOffer(headers: Headers, body: unknown, networks: readonly string[] | undefined): PaymentOffer | undefined {
  const paymentRequired = parsePaymentRequired(headers.get(PAYMENT_REQUIRED_HEADER)) ?? parsePaymentRequiredBody(body);
  if (paymentRequired) return chooseX402(paymentRequired, networks);
  return readBrc121(headers);
}

function parsePaymentRequired(header: string | null): X402PaymentRequired | undefined {
  if (!header) return undefined;
  try {
    return parsePaymentRequiredBody(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
  } catch {
    return undefined;
  }
}

function parsePaymentRequiredBody(body: unknown): X402PaymentRequired | undefined {
  const parsed = paymentRequiredSchema.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

function chooseX402(paymentRequired: X402PaymentRequired, networks: readonly string[] | undefined): PaymentOffer {
  const offered: string[] = [];
  for (const entry of paymentRequired.accepts) {
    const parsed = requirementSchema.safeParse(entry);
    if (!parsed.success) continue;
    const requirement = parsed.data;
    offered.push(`${requirement.scheme} on ${requirement.network}`);
    if (requirement.scheme !== 'exact' || !requirement.network.startsWith('bsv:')) continue;
    if (requirement.asset !== undefined && requirement.asset !== 'BSV') continue;
    if (networks && !networks.includes(requirement.network)) continue;
    const satoshis = Number(requirement.amount);
    const lockingScript = requirement.extra?.lockingScript?.toLowerCase() ?? scriptOfAddress(requirement.payTo);
    if (satoshis <= 0 || !lockingScript) continue;
    return { scheme: 'x402', satoshis, lockingScript, network: requirement.network, paymentRequired, accepted: entry };
  }
  throw new AppError(
    'failed_precondition',
    `The 402 offers no payment this client can make (offered: ${offered.join(', ') || 'nothing readable'}${networks ? `; this client pays on ${networks.join(', ')}` : ''}).`,
  );
}

function scriptOfAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  try {
    return new P2PKH().lock(address).toHex();
  } catch {
    return undefined;
  }
}

function readBrc121(headers: Headers): PaymentOffer | undefined {
  const sats = headers.get('x-bsv-sats');
  const server = headers.get('x-bsv-server');
  if (!sats || !server) return undefined;
  if (!/^\d{1,15}$/.test(sats) || Number(sats) <= 0 || !/^0[23][0-9a-f]{64}$/i.test(server))
    throw new AppError(
      'failed_precondition',
      `The 402's BRC-121 headers are not a price and a public key (x-bsv-sats: ${sats.slice(0, 20)}).`,
    );
  let lockingScript: string;
  try {
    lockingScript = new P2PKH().lock(PublicKey.fromString(server).toHash() as number[]).toHex();
  } catch {
    throw new AppError('failed_precondition', "The 402's x-bsv-server is not a public key.");
  }
  return { scheme: 'brc121', satoshis: Number(sats), lockingScript, serverKey: server.toLowerCase() };
}
