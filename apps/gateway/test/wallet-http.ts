// What a paying wallet does over HTTP, and what a merchant registers, for the paymail tests and for
// bench/paymail-latency.ts (no vitest here, so a bench run by tsx can import it).
import { HD, PrivateKey } from '@bsv/sdk';

/** What a merchant registers: the xpub of its wallet's account, the identity key; it keeps the private keys. */
export function merchantKeys() {
  const account = HD.fromRandom().derive("m/44'/236'/0'");
  return { account, xpub: account.toPublic().toString(), identity: PrivateKey.fromRandom() };
}

// The answers' JSON is whatever the route gives; tests read it field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
export type HttpAnswer = { status: number; json: Json; text: string; headers: Headers };

/** JSON over HTTP, as a wallet talks to a paymail host. */
export async function http(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}
