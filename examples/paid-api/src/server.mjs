#!/usr/bin/env node
// The paid API (examples/paid-api/README.md):
//
//   PAYGATE_KEY=ctk_pg_... PAYGATE_ACCOUNT=<account_id> node examples/paid-api/src/server.mjs
//
// CTK_GATEWAY (default http://localhost:8080) is the gateway whose payment gate prices the routes;
// PAYGATE_KEY the payment-gate key; PAYGATE_ACCOUNT its account id (optional: without it, credentials are
// checked by the gate until the first payment names the account); PAYGATE_IDENTITY_KEY the merchant's identity
// key (optional, WIF: BRC-121 payments as @bsv/402-pay makes them); PAID_API_PORT (default 3000) and
// PAID_API_HOST (default 127.0.0.1) where this server listens; PAID_API_PUBLIC_URL the URL clients use, if
// not that one.
import { buildApp } from './app.mjs';

const key = process.env.PAYGATE_KEY;
if (!key) {
  console.error('Set PAYGATE_KEY to a payment-gate key (POST /api/v1/orgs/:handle/paygate-keys).');
  process.exit(1);
}
const port = Number(process.env.PAID_API_PORT || 3000);
const host = process.env.PAID_API_HOST || '127.0.0.1';
const app = await buildApp({
  gateUrl: process.env.CTK_GATEWAY || 'http://localhost:8080',
  key,
  ...(process.env.PAYGATE_ACCOUNT ? { account: process.env.PAYGATE_ACCOUNT } : {}),
  ...(process.env.PAYGATE_IDENTITY_KEY ? { identityKey: process.env.PAYGATE_IDENTITY_KEY } : {}),
  ...(process.env.PAID_API_PUBLIC_URL ? { publicUrl: process.env.PAID_API_PUBLIC_URL } : {}),
});
const url = await app.listen({ port, host });
console.log(`Paid API on ${url}: GET /weather/:city (priced by the gate), GET /health (free)`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close().then(() => process.exit(0)));
