import { randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { P2PKH, PrivateKey, PublicKey } from '@bsv/sdk';
import { hasDotSegment, pricingResource } from '@ctk/shared';
import { newSigningKey, signCredential, type SigningKey } from './sign-credential.js';
import { readFakePayment, type OfferedPayment } from './read-fake-payment.js';

export type FakeGrant = { kind: 'calls'; calls: number } | { kind: 'window'; seconds: number };
export type FakeResource = { id: string; method: string; path: string; price_satoshis: number; grant: FakeGrant; description: string };
export type CheckBody = { method: string; url: string; headers: Record<string, string>; payee_key?: string };

export type FakeGateOptions = {
  key?: string;
  account?: string;
  maxAgeSeconds?: number;
  network?: string;
  /** `brc121`: the 402 carries only `x-bsv-sats` and `x-bsv-server`, as a BRC-121-only server's does. */
  offers?: 'x402' | 'brc121';
  resources?: Array<Omit<FakeResource, 'id' | 'description'> & { id?: string; description?: string }>;
  /** More checks on a payment's transaction (SPV against a chain, broadcast); throw to refuse it. */
  acceptTransaction?: (payment: { beef: Uint8Array; txid: string }) => Promise<void>;
};

export type FakeGate = {
  url: string;
  key: string;
  account: string;
  /** The kid of the key that signs credentials now. */
  kid: string;
  /** Requests received, by route: what proves a credential was checked without the gate. */
  requests: { check: number; document: number; resources: number };
  /** The bodies `/check` received, oldest first. */
  checks: CheckBody[];
  resources: FakeResource[];
  payments: Array<{ txid: string; satoshis: number; resource: string }>;
  /** A credential signed as the gate signs one (claims overridable: expired, another account, ...). */
  issue(resource: FakeResource, claims?: Record<string, unknown>, signWith?: SigningKey): string;
  revokeResource(id: string): void;
  revokeCredential(jti: string): void;
  /** A new signing key published beside the old one; returns its kid. */
  rotateKey(): string;
  close(): Promise<void>;
};

type OpenRequest = { nonce: string; resource: FakeResource; lockingScript: string; expiresAt: number };

/**
 * A small gate of the contract for tests and the bench: `/.well-known/ctk-paygate.json`, `GET
 * /api/v1/402/resources` and `POST /api/v1/402/check` (free, 402 with a fresh payment request, paid with a
 * real Ed25519 credential),
 * over real HTTP on 127.0.0.1. It checks a payment's output, nonce, time and txid; SPV is `acceptTransaction`'s.
 */
export async function startFakeGate(options: FakeGateOptions = {}): Promise<FakeGate> {
  const key = options.key ?? `ctk_pg_${randomBytes(16).toString('base64url')}`;
  const account = options.account ?? randomUUID();
  const network = options.network ?? 'bsv:local';
  const keys = [newSigningKey('gate-key-1')];
  const revoked = { resources: new Set<string>(), credentials: new Set<string>() };
  const open = new Map<string, OpenRequest>();
  const calls = new Map<string, number>();
  const txids = new Set<string>();
  let base = '';

  const gate: FakeGate = {
    url: '',
    key,
    account,
    kid: keys[0]!.kid,
    requests: { check: 0, document: 0, resources: 0 },
    checks: [],
    resources: (options.resources ?? []).map((resource) => ({
      id: randomUUID(),
      description: `${resource.method} ${resource.path}`,
      ...resource,
    })),
    payments: [],
    issue(resource, claims = {}, signWith = keys.at(-1)!) {
      const now = Math.floor(Date.now() / 1000);
      const grant = resource.grant;
      return signCredential(signWith, {
        iss: base,
        sub: account,
        jti: randomUUID(),
        res: resource.id,
        mth: resource.method,
        pth: resource.path,
        ...(grant.kind === 'calls' ? { calls: grant.calls } : {}),
        iat: now,
        exp: now + (grant.kind === 'window' ? grant.seconds : 86_400),
        ...claims,
      });
    },
    revokeResource: (id) => void revoked.resources.add(id),
    revokeCredential: (jti) => void revoked.credentials.add(jti),
    rotateKey() {
      const next = newSigningKey(`gate-key-${keys.length + 1}`);
      keys.push(next);
      gate.kid = next.kid;
      return next.kid;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const document = () => ({
    issuer: base,
    keys: keys.map(({ kid, x }) => ({ kid, alg: 'EdDSA', crv: 'Ed25519', x })),
    revoked: { resources: [...revoked.resources], credentials: [...revoked.credentials] },
    max_age_seconds: options.maxAgeSeconds ?? 30,
  });

  const paymentRequired = (resource: FakeResource, url: string, refusal?: { code: string; message: string }) => {
    const child = PrivateKey.fromRandom();
    const nonce = randomBytes(16).toString('base64');
    const lockingScript = new P2PKH().lock(child.toPublicKey().toHash() as number[]).toHex();
    open.set(nonce, { nonce, resource, lockingScript, expiresAt: Date.now() + 300_000 });
    const body = {
      x402Version: 2,
      error: refusal?.message ?? 'Payment required',
      resource: { url, description: resource.description, mimeType: '' },
      accepts: [
        {
          scheme: 'exact',
          network,
          amount: String(resource.price_satoshis),
          asset: 'BSV',
          payTo: child.toAddress(network === 'bsv:mainnet' ? 'mainnet' : 'testnet'),
          maxTimeoutSeconds: 300,
          extra: { nonce, lockingScript, serverKey: child.toPublicKey().toString() },
        },
      ],
    };
    const brc121 = { 'x-bsv-sats': String(resource.price_satoshis), 'x-bsv-server': child.toPublicKey().toString() };
    if (options.offers === 'brc121')
      return { outcome: 'payment_required', status: 402, headers: brc121, body: { error: body.error }, ...(refusal ? { refusal } : {}) };
    return {
      outcome: 'payment_required',
      status: 402,
      headers: { ...brc121, 'payment-required': Buffer.from(JSON.stringify(body)).toString('base64') },
      body,
      ...(refusal ? { refusal } : {}),
    };
  };

  /** The gate's own check of a credential presented to it: its signature, claims and (calls grants) its count. */
  const credentialRefusal = (token: string, resource: FakeResource): string | undefined => {
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return 'not a credential';
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid?: string };
    const signer = keys.find((k) => k.kid === kid);
    const publicKey = signer && ({ key: { kty: 'OKP', crv: 'Ed25519', x: signer.x }, format: 'jwk' } as const);
    if (!publicKey || !verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')))
      return 'bad signature';
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      sub: string;
      res: string;
      jti: string;
      exp: number;
      calls?: number;
    };
    if (claims.sub !== account || claims.res !== resource.id) return 'not for this resource';
    if (claims.exp <= Date.now() / 1000 || revoked.resources.has(claims.res) || revoked.credentials.has(claims.jti))
      return 'expired or revoked';
    const used = calls.get(claims.jti) ?? 0;
    if (claims.calls !== undefined && used >= claims.calls) return 'every call used';
    calls.set(claims.jti, used + 1);
    return undefined;
  };

  const acceptPayment = async (payment: OfferedPayment, resource: FakeResource, url: string, payeeKey: string | undefined) => {
    const output = payment.tx.outputs[payment.vout];
    // BRC-121 to the BRC-42 key the merchant's middleware derived (payee_key): no payment request, the resource's price.
    const brc42 = payeeKey && 'time' in payment ? new P2PKH().lock(PublicKey.fromString(payeeKey).toHash() as number[]).toHex() : undefined;
    const request = brc42
      ? { nonce: '', resource, lockingScript: brc42, expiresAt: Infinity }
      : 'nonce' in payment
        ? open.get(payment.nonce)
        : [...open.values()].find((candidate) => candidate.lockingScript === output?.lockingScript.toHex());
    if (!request || request.expiresAt < Date.now() || ('time' in payment && Math.abs(Date.now() - payment.time) > 30_000))
      return paymentRequired(resource, url, { code: 'payment_expired', message: 'No open payment request matches this payment.' });
    if (!output || output.lockingScript.toHex() !== request.lockingScript)
      return paymentRequired(resource, url, { code: 'payment_wrong_output', message: 'The output does not pay the payment request.' });
    if ((output.satoshis ?? 0) < request.resource.price_satoshis)
      return paymentRequired(resource, url, { code: 'payment_underpaid', message: 'The output pays less than the price.' });
    const txid = payment.tx.id('hex');
    if (txids.has(txid)) return paymentRequired(resource, url, { code: 'txid_already_used', message: 'This transaction already paid.' });
    try {
      await options.acceptTransaction?.({ beef: payment.beef, txid });
    } catch (error) {
      return paymentRequired(resource, url, { code: 'payment_invalid', message: (error as Error).message });
    }
    txids.add(txid);
    open.delete(request.nonce);
    gate.payments.push({ txid, satoshis: output.satoshis ?? 0, resource: request.resource.id });
    const token = gate.issue(request.resource);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string; exp: number; calls?: number };
    calls.set(claims.jti, 1);
    const payer = 'sender' in payment ? payment.sender : 'unknown';
    return {
      outcome: 'paid',
      status: 200,
      headers: {
        'payment-response': Buffer.from(JSON.stringify({ success: true, transaction: txid, network, payer })).toString('base64'),
        'x-ctk-credential': token,
      },
      credential: { token, calls: claims.calls ?? null, expires_at: new Date(claims.exp * 1000).toISOString() },
      payment: { id: claims.jti, txid, satoshis: output.satoshis },
    };
  };

  const check = async (body: CheckBody) => {
    const path = pathOfUrl(body.url);
    const resource = pricingResource(live(), body.method, path);
    if (!resource) return { outcome: 'free', status: 200, headers: {} };
    const token = body.headers['x-ctk-credential'];
    if (token) {
      const refusal = credentialRefusal(token, resource);
      if (!refusal) return { outcome: 'paid', status: 200, headers: {} };
      if (!body.headers['payment-signature'] && !body.headers['x-bsv-beef'])
        return paymentRequired(resource, body.url, { code: 'credential_refused', message: `The credential was refused: ${refusal}.` });
    }
    const payment = readFakePayment(body.headers);
    if (!payment) return paymentRequired(resource, body.url);
    if ('invalid' in payment) return paymentRequired(resource, body.url, { code: 'payment_invalid', message: payment.invalid });
    return acceptPayment(payment, resource, body.url, body.payee_key);
  };

  /** The live resources, each dated by its place in `resources` (a resource pushed later is newer), as the gate lists them. */
  const live = () =>
    gate.resources
      .map((resource, index) => ({ ...resource, createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000) }))
      .filter((resource) => !revoked.resources.has(resource.id));

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const answer = (status: number, json: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      try {
        if (request.method === 'GET' && request.url === '/.well-known/ctk-paygate.json') {
          gate.requests.document++;
          return answer(200, document());
        }
        if (request.method === 'GET' && request.url?.startsWith('/api/v1/402/resources')) {
          gate.requests.resources++;
          if (request.headers.authorization !== `Bearer ${key}`)
            return answer(401, { error: { code: 'invalid_api_key', message: 'The payment-gate key is not valid.' } });
          const data = live().map(({ createdAt, ...resource }) => ({ ...resource, created_at: createdAt.toISOString() }));
          return answer(200, { data, next_cursor: null });
        }
        if (request.method === 'POST' && request.url === '/api/v1/402/check') {
          gate.requests.check++;
          if (request.headers.authorization !== `Bearer ${key}`)
            return answer(401, { error: { code: 'invalid_api_key', message: 'The payment-gate key is not valid.' } });
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CheckBody;
          gate.checks.push(body);
          if (hasDotSegment(pathOfUrl(body.url)))
            return answer(422, { error: { code: 'validation_failed', message: 'url must not hold "." or ".." segments.' } });
          return answer(200, await check(body));
        }
        answer(404, { error: { code: 'route_not_found', message: 'No such route.' } });
      } catch (error) {
        answer(500, { error: { code: 'internal', message: (error as Error).message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gate.url = base;
  return gate;
}

/** The path of a check's URL as received (not resolved by a URL parser), compared as the gate compares it (escapes, case and slashes folded, HEAD as GET). */
function pathOfUrl(url: string): string {
  return /^(?:https?:\/\/[^/?#]+)?(\/[^?#]*)?/i.exec(url)?.[1] ?? '/';
}
