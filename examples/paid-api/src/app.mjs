// The paid API: a small fastify app with one priced route and one free route. The price and what a
// payment buys live in the payment gate (a priced resource, `POST /api/v1/402/resources`); the route only
// says it is behind the gate (`{ paygate: true }`).
import { paygateFastify } from '@ctk/paygate/server';
import Fastify from 'fastify';

const FORECASTS = ['sunny', 'cloudy', 'light rain', 'windy', 'snow'];

/**
 * @param {{ gateUrl: string, key: string, account?: string, identityKey?: string, publicUrl?: string }} gate
 *   the gateway, the payment-gate key, its account id and the merchant's identity key (see README.md)
 */
export async function buildApp(gate) {
  // A BEEF in a payment header can outgrow Node's 16 KiB header limit (a payer's unmined ancestors).
  const app = Fastify({ logger: { level: 'warn' }, http: { maxHeaderSize: 256 * 1024 } });
  await app.register(paygateFastify, gate);

  // Priced: the gate answers a bare request 402 with a payment request; a payment or a credential passes.
  app.get('/weather/:city', { paygate: true }, async (request) => {
    const { city } = /** @type {{ city: string }} */ (request.params);
    const seed = [...city].reduce((sum, c) => sum + c.charCodeAt(0), 0);
    return { city, forecast: FORECASTS[seed % FORECASTS.length], high_celsius: 10 + (seed % 20) };
  });

  // Free: no gate on the way.
  app.get('/health', async () => ({ ok: true }));
  return app;
}
