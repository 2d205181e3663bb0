// The embedded default: the local chain, every service of the registry and the gateway in this one
// process (the gateway on a thread of its own), each started through the one bootstrap (startService), with PGlite databases under
// CTK_DATA_DIR (default .data), the local chain's blocks in CTK_DATA_DIR/chain, and payment events
// delivered in process from the services' outboxes to books and commerce (the same outbox, relay and
// consumer code as with NATS). Nothing external is needed.
// Services listen on free ports (<APP>_GRPC_PORT fixes one), so instances side by side never collide:
// a second one needs only another PORT and CTK_DATA_DIR. The local chain is a network the instances
// share: at CHAIN_PORT (default 50070) one is started unless one already answers there.
// NATS_URL puts the events on NATS JetStream instead. CHAIN_NETWORK=main or test skips the local chain
// (the apps then talk to ARC and WhatsOnChain). <APP>_DATABASE_URL (e.g. GATEWAY_DATABASE_URL,
// POS_DATABASE_URL) puts that app on PostgreSQL: each app has a database of its own, so a plain
// DATABASE_URL is not passed on. METRICS_PORT serves the process's metrics (every app's: they share one
// registry) on the gateway's metrics listener alone (docs/decisions/0042-metrics.md).
// Production runs each app as its own process instead (apps/<app>/dist/server.js; see deploy/).
import { existsSync, readdirSync } from 'node:fs';
import { get } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { deferOptimisation } from '../packages/shared/dist/service/start-tiering.js';
import { banner } from './banner.mjs';
import { startBundle } from './start-bundle.mjs';

// V8's optimising compiler waits for real use rather than taking the start's code (decisions 0062 and 0069): set
// first, before this thread or the others load their modules.
const optimiseAsUsual = deferOptimisation();
const root = resolve(import.meta.dirname, '..');
// The embedded databases' threads start first, while this one checks the bundle and loads the apps: they load PGlite
// meanwhile, and then open the databases two at a time, each in turn (decision 0069). An app has a database when it
// has a prisma/ folder, and it is embedded unless <APP>_DATABASE_URL names a server.
const embeddedApps = readdirSync(resolve(root, 'apps')).filter(
  (name) => existsSync(resolve(root, 'apps', name, 'prisma')) && !process.env[`${name.toUpperCase()}_DATABASE_URL`],
);
const databasesThreads = Array.from(
  { length: Math.min(2, embeddedApps.length) },
  () => new Worker(new URL('../packages/shared/dist/db/pglite-thread.js', import.meta.url)),
);
// The modules below come from the bundle `pnpm build` made of them (decision 0061) while it is as new as they are.
const bundle = startBundle(root);
const urlOf = (path) => bundle.modules?.[path] ?? pathToFileURL(resolve(root, path)).href;
const load = (path) => import(urlOf(path));
const dataDir = resolve(process.env.CTK_DATA_DIR ?? '.data');

// Each service's embedded database starts opening first, in the order the services start, on the embedded
// databases' threads, while this one loads and builds them; each service's start then takes its own (decision 0058).
// The gateway runs on a thread of its own (decision 0059), which loads it and opens its database meanwhile.
const [{ prepareDatabase }, { useDatabaseThreads }, { startOrder }, { openServiceThread }] = await Promise.all([
  load('packages/shared/dist/db/open-database.js'),
  load('packages/shared/dist/db/pglite-client.js'),
  load('packages/shared/dist/service/registry.js'),
  load('packages/shared/dist/service/service-thread.js'),
]);
useDatabaseThreads(databasesThreads);
const databaseOf = (name) => ({
  service: name,
  databaseUrl: process.env[`${name.toUpperCase()}_DATABASE_URL`],
  dataDir,
  prismaDir: resolve(root, 'apps', name, 'prisma'),
});
for (const name of startOrder()) prepareDatabase(databaseOf(name));
const gatewayThread = openServiceThread({
  module: urlOf('apps/gateway/dist/app.js'),
  threadUrl: new URL(urlOf('packages/shared/dist/service/service-thread-main.js')),
  database: databaseOf('gateway'),
  tracingName: 'commerce-toolkit',
});

const { callsOf, consumersOf, createLogger, grpcUrlVariable, inProcessTransport, loadConfig, startService, startTracing } =
  await load('packages/shared/dist/index.js');
// One process, one traced service (with OTEL_EXPORTER_OTLP_ENDPOINT): each span names the app's call or event.
await startTracing('commerce-toolkit');

const port = process.env.PORT ?? '8080';
const logLevel = process.env.LOG_LEVEL ?? 'info';

const logger = createLogger('start-all', logLevel);
if (bundle.reason) logger.warn({}, `loading the apps' modules one by one, a slower start: ${bundle.reason}`);
const { DATABASE_URL: _shared, METRICS_PORT: metricsPort, ...inherited } = process.env;
/** An app's environment: the inherited one, with its own database and the variables given. */
const envOf = (name, env) => {
  const databaseUrl = process.env[`${name.toUpperCase()}_DATABASE_URL`];
  return { ...inherited, CTK_DATA_DIR: dataDir, LOG_LEVEL: logLevel, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env };
};
// Without NATS, one in-process transport carries every outbox's events to books' and commerce's consumers, each
// event kept until both have handled it.
const transport = process.env.NATS_URL ? undefined : inProcessTransport({ logger, durables: consumersOf() });
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

/**
 * What the local chain at `url` says of itself, or undefined when none answers there. Asked with node:http, which
 * the local chain's own server loads anyway: fetch would load undici on this thread, a tenth of a second of a start.
 */
function chainInfo(url) {
  return new Promise((resolve) => {
    const request = get(`${url}/v1/bsv/local/chain/info`, { timeout: 2_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('error', () => resolve(undefined));
      response.on('end', () => {
        try {
          resolve(response.statusCode === 200 ? JSON.parse(body) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    request.on('timeout', () => request.destroy(new Error('no answer in 2 s')));
    request.on('error', () => resolve(undefined));
  });
}

/** The local chain at its URL: another instance's when one answers there (a network the instances share), else ours. */
async function localChain(chainPort) {
  const url = `http://127.0.0.1:${chainPort}`;
  const info = await chainInfo(url);
  if (info?.chain === 'local') {
    logger.info({ url }, 'using the local chain another instance started there');
    return { url, shared: true };
  }
  const { localChainConfigSchema, localChainOptions, startLocalChain } = await load('packages/chain/dist/local/index.js');
  const config = loadConfig(localChainConfigSchema, envOf('chain', { CHAIN_PORT: chainPort }));
  running.push(await startLocalChain({ ...localChainOptions(config), logger: createLogger('local-chain', logLevel) }));
  return { url, shared: false };
}

try {
  const chainNetwork = process.env.CHAIN_NETWORK || 'local';
  const chain = chainNetwork === 'local' ? await localChain(process.env.CHAIN_PORT || '50070') : undefined;
  // The services that read the chain (CHAIN_*, see packages/chain) are given the local chain.
  const chainEnv = chain ? { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url } : {};

  // Federation names this instance to its peers by the gateway's public URL.
  const publicUrl = process.env.CTK_PUBLIC_URL || `http://localhost:${port}`;
  const federationEnv = { FEDERATION_PUBLIC_URL: process.env.FEDERATION_PUBLIC_URL || publicUrl };
  const addresses = {};
  // Every app's modules start loading at once: the main thread loads the next apps while an app waits for its
  // database. A failure is the app's own start's, which rethrows it.
  const apps = new Map(startOrder().map((name) => [name, load(`apps/${name}/dist/app.js`)]));
  for (const loading of apps.values()) loading.catch(() => undefined);
  // Each service after the ones it calls (the registry's `calls`: pos calls books and p2p), given their addresses.
  for (const name of startOrder()) {
    const { configSchema, service } = await apps.get(name);
    const grpcPort = process.env[`${name.toUpperCase()}_GRPC_PORT`] ?? '0';
    const callees = Object.fromEntries(callsOf(name).map((callee) => [grpcUrlVariable(callee), addresses[grpcUrlVariable(callee)]]));
    const own = name === 'federation' ? federationEnv : {};
    const config = loadConfig(configSchema, envOf(name, { GRPC_PORT: grpcPort, ...chainEnv, ...own, ...callees }));
    const app = await startService(service, config, { logger: createLogger(name, logLevel), transport });
    running.push(app);
    addresses[grpcUrlVariable(name)] = `127.0.0.1:${app.port}`;
  }
  // The gateway serves the back office the build made (apps/back-office/dist), on a thread of its own: its HTTP,
  // JSON and validation run on the second core, and its calls cross to the services' thread (decision 0059).
  const backOffice = process.env.CTK_BACK_OFFICE_DIR ?? resolve(root, 'apps/back-office/dist');
  const metrics = metricsPort ? { METRICS_PORT: metricsPort } : {};
  const gatewayEnv = envOf('gateway', { PORT: port, CTK_BACK_OFFICE_DIR: backOffice, ...metrics, ...addresses });
  running.push(await gatewayThread.start(gatewayEnv));
  optimiseAsUsual();
  const { configSchema } = await load('apps/gateway/dist/config.js');
  const config = loadConfig(configSchema, gatewayEnv);

  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  const how = `data in ${dataDir}; payment events ${transport ? 'in process' : `on NATS at ${process.env.NATS_URL}`}`;
  console.log(banner({ base: config.CTK_PUBLIC_URL.replace(/\/$/, ''), how, chain, chainNetwork }));
} catch (error) {
  logger.fatal({ err: error }, 'Commerce Toolkit failed to start');
  await stop(1);
}
