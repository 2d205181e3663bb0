// The embedded default: the local chain, the six services and the gateway in this one process, with
// PGlite databases under CTK_DATA_DIR (default .data), the local chain's blocks in CTK_DATA_DIR/chain, and
// payment events delivered in process from the services' outboxes to books (one in-process transport,
// the same outbox, relay and consumer code as with NATS). Nothing external is needed.
// NATS_URL puts the events on NATS JetStream instead. CHAIN_PORT moves the local chain (default 50070);
// CHAIN_NETWORK=main or test skips it (the apps then talk to ARC and WhatsOnChain).
// <APP>_GRPC_PORT moves a service (e.g. POS_GRPC_PORT=51062); PORT moves the gateway.
// <APP>_DATABASE_URL (e.g. GATEWAY_DATABASE_URL, POS_DATABASE_URL) puts that app on PostgreSQL: each app
// has a database of its own, so a plain DATABASE_URL is not passed on.
// Production runs each app as its own process instead (apps/<app>/dist/server.js; see deploy/).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const load = (path) => import(pathToFileURL(resolve(root, path)).href);
const { createLogger, inProcessTransport, loadConfig } = await load('packages/shared/dist/index.js');

const dataDir = resolve(process.env.CTK_DATA_DIR ?? '.data');
const port = process.env.PORT ?? '8080';
const logLevel = process.env.LOG_LEVEL ?? 'info';
const SERVICES = {
  books: { port: 50061, start: 'startBooks' },
  pos: { port: 50062, start: 'startPos' },
  commerce: { port: 50063, start: 'startCommerce' },
  p2p: { port: 50064, start: 'startP2p' },
  federation: { port: 50065, start: 'startFederation' },
  contracts: { port: 50066, start: 'startContracts' },
};

const logger = createLogger('start-all', logLevel);
const { DATABASE_URL: _shared, ...inherited } = process.env;
/** An app's environment: the inherited one, with its own database and the variables given. */
const envOf = (name, env) => {
  const databaseUrl = process.env[`${name.toUpperCase()}_DATABASE_URL`];
  return { ...inherited, CTK_DATA_DIR: dataDir, LOG_LEVEL: logLevel, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env };
};
// Without NATS, one in-process transport carries every outbox's events to books' consumer.
const transport = process.env.NATS_URL ? undefined : inProcessTransport({ logger });
const running = [];

async function stop(code) {
  logger.info({}, 'stopping');
  const timer = setTimeout(() => process.exit(code || 1), 10_000).unref();
  // The gateway first (no new calls), then the services (relays drain into the transport), then the chain.
  for (const app of running.reverse()) await app.close().catch((error) => logger.error({ err: error }, 'did not stop cleanly'));
  await transport?.close();
  clearTimeout(timer);
  process.exit(code);
}

try {
  const chainNetwork = process.env.CHAIN_NETWORK || 'local';
  const chainPort = process.env.CHAIN_PORT || '50070';
  const chainUrl = `http://127.0.0.1:${chainPort}`;
  if (chainNetwork === 'local') {
    const { localChainConfigSchema, localChainOptions, startLocalChain } = await load('packages/chain/dist/local/index.js');
    const config = loadConfig(localChainConfigSchema, envOf('chain', { CHAIN_PORT: chainPort }));
    running.push(await startLocalChain({ ...localChainOptions(config), logger: createLogger('local-chain', logLevel) }));
  }
  // Every app reads the chain client's config (CHAIN_*, see packages/chain): here, the local chain.
  const chainEnv = chainNetwork === 'local' ? { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chainUrl } : {};

  const addresses = {};
  for (const [name, service] of Object.entries(SERVICES)) {
    const grpcPort = process.env[`${name.toUpperCase()}_GRPC_PORT`] ?? String(service.port);
    const app = await load(`apps/${name}/dist/app.js`);
    const config = loadConfig(app.configSchema, envOf(name, { GRPC_PORT: grpcPort, ...chainEnv }));
    running.push(await app[service.start](config, createLogger(name, logLevel), { transport }));
    addresses[`${name.toUpperCase()}_GRPC_URL`] = `127.0.0.1:${grpcPort}`;
  }
  const { buildGateway } = await load('apps/gateway/dist/app.js');
  const { configSchema } = await load('apps/gateway/dist/config.js');
  const config = loadConfig(configSchema, envOf('gateway', { PORT: port, ...addresses, ...chainEnv }));
  const gateway = await buildGateway(config);
  running.push(gateway);
  await gateway.app.listen({ port: config.PORT, host: config.HOST });

  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  const base = `http://localhost:${port}`;
  console.log(`
Commerce Toolkit is running at ${base} (data in ${dataDir}; payment events ${transport ? 'in process' : `on NATS at ${process.env.NATS_URL}`}).
  Docs:          ${base}/docs
  API map:       ${base}/api/v1/capabilities
  Onboard:       curl -s -X POST ${base}/api/v1/onboard -H 'content-type: application/json' -d '{"name": "My Cafe"}'
  Who am I:      curl -s ${base}/api/v1/me -H "authorization: Bearer <api_key from onboarding>"
${
  chainNetwork === 'local'
    ? `  Local chain:   ${chainUrl} (ARC; WhatsOnChain at ${chainUrl}/v1/bsv/local)
  Faucet:        curl -s -X POST ${chainUrl}/faucet -H 'content-type: application/json' -d '{"address": "<P2PKH address>", "satoshis": 100000}'
  Mine a block:  curl -s -X POST ${chainUrl}/mine
`
    : `  Chain:         ${chainNetwork} (ARC and WhatsOnChain)
`
}Stop with Ctrl-C.
`);
} catch (error) {
  logger.fatal({ err: error }, 'Commerce Toolkit failed to start');
  await stop(1);
}
