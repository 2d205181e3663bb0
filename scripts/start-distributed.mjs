// The distributed path (npm run up:distributed): every app its own process, on PostgreSQL and NATS JetStream,
// as Kubernetes runs them (scripts/distributed/system.mjs). What it reads:
//   CTK_POSTGRES_URL   the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres); each app
//                      gets a database of its own on it, `<CTK_DATABASE_PREFIX>_<app>` (default ctk_gateway,
//                      ctk_books, ...), made when missing; <APP>_DATABASE_URL gives one app another
//   NATS_URL           NATS with JetStream (default nats://127.0.0.1:4222)
//   CTK_REPLICAS       processes per app (default 1); `2,federation=1` sets one app apart
//   PORT, CTK_DATA_DIR (default .data-distributed: logs, the local chain, published sites), CHAIN_PORT, LOG_LEVEL
import { resolve } from 'node:path';
import { banner } from './banner.mjs';
import { DEFAULTS, distributedSystem } from './distributed/system.mjs';

/** `2` or `2,federation=1` as { default: 2, federation: 1 }. */
function replicasSetting(text = '1') {
  const replicas = { default: 1 };
  for (const part of text.split(',').filter(Boolean)) {
    const [app, count] = part.includes('=') ? part.split('=') : ['default', part];
    if (!/^[1-9]\d*$/.test(count)) throw new Error(`CTK_REPLICAS: "${part}" is not a count of processes (1 or more)`);
    replicas[app.trim()] = Number(count);
  }
  return replicas;
}

const dataDir = resolve(process.env.CTK_DATA_DIR ?? '.data-distributed');
const natsUrl = process.env.NATS_URL || DEFAULTS.natsUrl;
const postgresUrl = process.env.CTK_POSTGRES_URL || DEFAULTS.postgresUrl;
let replicas;
try {
  replicas = replicasSetting(process.env.CTK_REPLICAS);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const system = distributedSystem({
  port: Number(process.env.PORT ?? 8080),
  dataDir,
  postgresUrl,
  natsUrl,
  databasePrefix: process.env.CTK_DATABASE_PREFIX || DEFAULTS.databasePrefix,
  replicas,
  chainPort: Number(process.env.CHAIN_PORT || 50070),
  logLevel: process.env.LOG_LEVEL ?? 'info',
});
const stop = async (code) => {
  const timer = setTimeout(() => process.exit(code || 1), 30_000).unref();
  await system.close().catch((error) => console.error(`did not stop cleanly: ${error.message}`));
  clearTimeout(timer);
  process.exit(code);
};
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));
try {
  await system.start();
  const server = new URL(postgresUrl);
  const apps = [...system.apps.values()].filter((app) => app.name !== 'chain');
  const processes = apps.reduce((sum, app) => sum + app.replicas.length, 0);
  const how = `${processes} processes for ${apps.length} apps; databases on ${server.host}; payment events on NATS at ${natsUrl}; logs in ${system.logs}`;
  console.log(
    banner({ base: system.base, how, chain: { url: system.chainUrl, shared: !system.apps.has('chain') }, chainNetwork: 'local' }),
  );
  console.log(`Metrics: every process's GET /metrics, scraped with the alerts of deploy/observability/ by
  prometheus --config.file=${system.prometheusConfig}
`);
} catch (error) {
  console.error(`Commerce Toolkit failed to start: ${error.message}`);
  await stop(1);
}
