import { BSM, LockingScript, Utils, type PrivateKey, type Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { baseUrlOfDomain, checkUrl, expectJson, requestJson } from '../http.js';
import type { PaymentPlan } from './plan.js';
import { proveAncestry } from './source-transactions.js';

/** BRFC ids of the capabilities used. */
const P2P_DESTINATION = '2a40af698840';
const RECEIVE_TRANSACTION = '5f1323cddf31';
const RECEIVE_BEEF = '5c55a7fdb7bb';
const PAYMENT_DESTINATION = ['paymentDestination', '759684b1a19a'];

const PAYMAIL = /^([a-z0-9._+-]+)@((?:[a-z0-9-]+\.)*[a-z0-9-]+(?::\d{1,5})?)$/i;

export function isPaymail(target: string): boolean {
  return PAYMAIL.test(target);
}

type Context = { chain: ChainClient; key: PrivateKey; insecureHttp: boolean };

/**
 * Resolves `alias@domain` through `<domain>/.well-known/bsvalias` (no SRV lookup: the domain itself, or
 * `alias@domain:port` for a service on a port, such as a local instance):
 * P2P payment destination and receive transaction (BEEF when offered, else raw hex) when the receiver
 * offers them, so the receiver broadcasts; else the basic payment destination, and the wallet broadcasts.
 */
export async function planPaymail(target: string, satoshis: number, context: Context): Promise<PaymentPlan> {
  const [, alias, location] = PAYMAIL.exec(target) as RegExpExecArray;
  // A port locates the service, as an SRV record would (a local instance): the paymail itself is alias@domain.
  const domain = (location as string).replace(/:\d+$/, '');
  const paymail = `${alias}@${domain}`;
  const capabilities = await fetchCapabilities(location as string, context.insecureHttp);
  const endpoint = (id: string) => {
    const template = capabilities[id];
    return typeof template === 'string'
      ? checkUrl(template.replace('{alias}', alias as string).replace('{domain.tld}', domain), context.insecureHttp, `paymail ${id}`)
      : undefined;
  };
  const destination = endpoint(P2P_DESTINATION);
  const receive = endpoint(RECEIVE_BEEF) ?? endpoint(RECEIVE_TRANSACTION);
  if (destination && receive) return planP2p(paymail, satoshis, destination, receive, endpoint(RECEIVE_BEEF) !== undefined, context);
  const basic = PAYMENT_DESTINATION.map(endpoint).find(Boolean);
  if (!basic) throw new AppError('failed_precondition', `${paymail}'s service offers no payment destination.`);
  return planBasic(paymail, satoshis, basic, context);
}

async function fetchCapabilities(domain: string, insecureHttp: boolean): Promise<Record<string, unknown>> {
  const url = checkUrl(`${baseUrlOfDomain(domain, insecureHttp)}/.well-known/bsvalias`, insecureHttp, 'paymail capability');
  const answer = await requestJson(url, 'paymail service');
  if (answer.status === 404) throw new AppError('not_found', `${domain} serves no paymail (no /.well-known/bsvalias).`);
  const document = expectJson(answer, `paymail service of ${domain}`);
  if (typeof document.capabilities !== 'object' || document.capabilities === null)
    throw new AppError('failed_precondition', `${domain}'s /.well-known/bsvalias lists no capabilities.`);
  return document.capabilities as Record<string, unknown>;
}

async function planP2p(
  paymail: string,
  satoshis: number,
  destinationUrl: URL,
  receiveUrl: URL,
  beef: boolean,
  context: Context,
): Promise<PaymentPlan> {
  const answer = await requestJson(destinationUrl, 'paymail P2P destination', { method: 'POST', body: { satoshis } });
  if (answer.status === 404) throw new AppError('not_found', `Paymail ${paymail} not found.`);
  const body = expectJson(answer, `paymail P2P destination of ${paymail}`);
  const outputs = body.outputs;
  if (!Array.isArray(outputs) || outputs.length === 0 || typeof body.reference !== 'string')
    throw new AppError('failed_precondition', `${paymail}'s P2P destination gave no outputs or no reference.`);
  const planned = outputs.map((output: { script?: unknown; satoshis?: unknown }) => {
    if (typeof output.script !== 'string' || !Number.isSafeInteger(output.satoshis) || (output.satoshis as number) < 0)
      throw new AppError('failed_precondition', `${paymail}'s P2P destination gave an output without a script or satoshis.`);
    return { lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis as number };
  });
  const paid = planned.reduce((sum, output) => sum + output.satoshis, 0);
  if (paid !== satoshis)
    throw new AppError('failed_precondition', `${paymail}'s P2P destination asks for ${paid} satoshis, not the ${satoshis} requested.`);
  const reference = body.reference;
  return {
    to: paymail,
    merchant: paymail,
    outputs: planned,
    async deliver(tx: Transaction) {
      const txid = tx.id('hex');
      const metadata = {
        pubkey: context.key.toPublicKey().toString(),
        signature: BSM.sign(Utils.toArray(txid, 'utf8'), context.key, 'base64') as string,
        note: 'ctk-wallet',
      };
      if (beef) await proveAncestry(context.chain, tx);
      const payload = beef ? { beef: tx.toHexBEEF(), reference, metadata } : { hex: tx.toHex(), reference, metadata };
      const ack = expectJson(
        await requestJson(receiveUrl, 'paymail receive-transaction', { method: 'POST', body: payload }),
        `paymail receive-transaction of ${paymail}`,
      );
      if (typeof ack.txid === 'string' && ack.txid !== txid)
        throw new AppError('failed_precondition', `${paymail}'s service acknowledged another transaction (${ack.txid}).`);
      return {
        via: beef ? 'paymail P2P (BEEF)' : 'paymail P2P (raw transaction)',
        ...(typeof ack.note === 'string' ? { note: ack.note } : {}),
      };
    },
  };
}

async function planBasic(paymail: string, satoshis: number, url: URL, context: Context): Promise<PaymentPlan> {
  const answer = await requestJson(url, 'paymail payment destination', {
    method: 'POST',
    body: { senderName: 'ctk-wallet', dt: new Date().toISOString(), amount: satoshis, purpose: '' },
  });
  if (answer.status === 404) throw new AppError('not_found', `Paymail ${paymail} not found.`);
  const body = expectJson(answer, `paymail payment destination of ${paymail}`);
  if (typeof body.output !== 'string') throw new AppError('failed_precondition', `${paymail}'s payment destination gave no output script.`);
  return {
    to: paymail,
    merchant: paymail,
    outputs: [{ lockingScript: LockingScript.fromHex(body.output), satoshis }],
    async deliver(tx: Transaction) {
      await context.chain.broadcast(tx);
      return { via: 'paymail payment destination (broadcast)' };
    },
  };
}
