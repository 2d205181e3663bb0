import { readFileSync } from 'node:fs';
import { createPaidFetch, type PaymentMade } from '@ctk/paygate/client';
import { AppError } from '@ctk/shared';
import { parseSatoshis } from '../amounts.js';
import { checkUrl } from '../http.js';
import { report } from '../io.js';
import { payResource, walletCredentials, X402_NETWORK } from '../pay/pay-resource.js';
import type { CommandContext } from './context.js';

const TIMEOUT_MS = 60_000;

/**
 * Fetches a URL, paying its HTTP 402 from the wallet (x402, or BRC-121) up to `--max-sats`: without it,
 * nothing is paid. A credential the payment buys is kept in the wallet file and sent to that resource
 * later, until it expires or is refused. Prints the answer's body (with --json: status, payment, body).
 */
export async function fetchResource({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const [target] = options.args;
  if (!target || options.args.length > 1)
    throw new AppError('bad_request', 'Give one URL: ctk-wallet fetch <url> [--max-sats N] [--method M] [--data text|@file].');
  const url = checkUrl(target, options.insecureHttp, 'resource');
  const maxSatoshis = options.maxSats === undefined ? 0 : parseSatoshis(options.maxSats);
  const method = (options.method ?? (options.data === undefined ? 'GET' : 'POST')).toUpperCase();
  if (!/^[A-Z]{1,20}$/.test(method)) throw new AppError('bad_request', `--method must be an HTTP method, not "${options.method}".`);
  const opened = wallet();
  const fees = new Map<string, number>();
  let payment: PaymentMade | undefined;
  const paidFetch = createPaidFetch({
    pay: payResource({ chain: chain.client, arcUrl: chain.arcUrl, wallet: opened }, fees),
    maxSatoshis,
    // BRC-121 offers are paid as @bsv/402-pay pays them, to a BRC-42 key of x-bsv-server for the wallet's key.
    identityKey: opened.key,
    networks: [X402_NETWORK[chain.network]],
    credentials: walletCredentials(opened),
    onPayment: (made) => (payment = made),
  });

  let response: Response;
  try {
    response = await paidFetch(url, {
      method,
      headers: requestHeaders(options.header, options.data),
      ...(options.data === undefined ? {} : { body: readData(options.data) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw explain(error, method, url);
  }
  const text = await response.text();
  const paid = payment as PaymentMade | undefined;
  const accepted = paid && paid.status !== 402 && paid.txid ? paid : undefined;
  if (accepted?.txid)
    opened.recordPayment({
      txid: accepted.txid,
      to: url.toString(),
      satoshis: accepted.satoshis,
      fee: fees.get(accepted.txid) ?? 0,
      at: new Date().toISOString(),
    });
  if (!response.ok) throw new AppError('failed_precondition', refusalOf(method, url, response, text, paid));

  if (options.json) {
    report(io, true, {
      status: response.status,
      url: url.toString(),
      paid: accepted
        ? { txid: accepted.txid, satoshis: accepted.satoshis, fee: fees.get(accepted.txid as string) ?? 0, scheme: accepted.scheme }
        : null,
      headers: {
        'payment-response': accepted?.paymentResponse ?? null,
        'x-ctk-credential': response.headers.get('x-ctk-credential'),
      },
      body: parseJson(text),
    });
    return;
  }
  if (accepted)
    io.err(
      `Paid ${accepted.satoshis} satoshis for ${method} ${url} (fee ${fees.get(accepted.txid as string) ?? 0}), txid ${accepted.txid}.`,
    );
  io.out(text);
}

/** `--header "name: value"` (repeatable), and a content type for `--data`: JSON when it parses as JSON. */
function requestHeaders(lines: string[], data: string | undefined): Headers {
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 1) throw new AppError('bad_request', `--header must be "name: value", not "${line}".`);
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  if (data !== undefined && !headers.has('content-type'))
    headers.set('content-type', parseJson(readData(data)) === undefined ? 'text/plain; charset=utf-8' : 'application/json');
  return headers;
}

function readData(data: string): string {
  if (!data.startsWith('@')) return data;
  try {
    return readFileSync(data.slice(1), 'utf8');
  } catch {
    throw new AppError('bad_request', `Cannot read the data file ${data.slice(1)}.`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text === '' ? undefined : text;
  }
}

/** The client's refusals as the wallet words them: the cap is `--max-sats`; a network failure names the host. */
function explain(error: unknown, method: string, url: URL): unknown {
  if (AppError.is(error) && error.code === 'payment_required' && error.details) {
    const { satoshis, spent, max_satoshis: cap } = error.details as { satoshis: number; spent: number; max_satoshis: number };
    return new AppError(
      'payment_required',
      cap === 0
        ? `${method} ${url} costs ${satoshis} satoshis: pass --max-sats ${satoshis} (or more) to pay it. Nothing was paid.`
        : `${method} ${url} costs ${satoshis} satoshis, over --max-sats ${cap}${spent > 0 ? ` with ${spent} already paid` : ''}. Nothing was paid.`,
    );
  }
  if (AppError.is(error)) return error;
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
  return new AppError('unavailable', `${url.host} is unreachable (${cause}).`);
}

function refusalOf(method: string, url: URL, response: Response, text: string, paid: PaymentMade | undefined): string {
  const why = messageOf(parseJson(text));
  if (response.status === 402 && paid) return `${method} ${url} refused the payment (${paid.satoshis} satoshis, txid ${paid.txid})${why}.`;
  const location = response.headers.get('location');
  return `${method} ${url} answered ${response.status}${location ? ` (a redirect to ${location})` : ''}${why}.`;
}

/** The answer's own words: our `{error: {message}}`, fastify's `{message}`, or x402's `{error: "..."}`. */
function messageOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const { error, message } = body as { error?: unknown; message?: unknown };
  const nested = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  const found = [nested, message, error].find((candidate): candidate is string => typeof candidate === 'string');
  return found ? `: ${found.slice(0, 300).replace(/\.$/, '')}` : '';
}
