// The distributed path on one machine: every app its own process, as Kubernetes runs them (deploy/), on
// PostgreSQL (one database per app) and NATS JetStream. Each app runs `replicas` processes
// (apps/<app>/dist/server.js, each with its outbox relay and its consumer, as in its pod) behind a TCP
// balancer that stands for its Kubernetes Service; the gateway's balancer is the public port. A replica
// that exits is restarted (replica.mjs). The local chain runs as a process of its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBalancer } from './balancer.mjs';
import { Replica } from './replica.mjs';

const root = resolve(import.meta.dirname, '../..');
const load = (path) => import(pathToFileURL(resolve(root, path)).href);
const { callsOf, ensureDatabase, grpcUrlVariable, startOrder } = await load('packages/shared/dist/index.js');
const { grpcHealthStatus } = await load('packages/shared/dist/testing/grpc-health.js');
const { freePort } = await load('packages/shared/dist/testing/free-port.js');

export const DEFAULTS = {
  postgresUrl: 'postgresql://postgres@127.0.0.1:5432/postgres',
  natsUrl: 'nats://127.0.0.1:4222',
  databasePrefix: 'ctk',
};

/**
 * The system, not started: `start()` starts the local chain, each service after those it calls, then the
 * gateway, and resolves when every replica is ready; `close()` (at any time, during a start too) stops
 * what has started. `replicas` is a number for every app, or `{ default, <app>: n }`.
 *
 * @param {{ port?: number, dataDir: string, postgresUrl?: string, natsUrl?: string, databasePrefix?: string,
 *   replicas?: number | Record<string, number>, chainPort?: number, logLevel?: string, env?: NodeJS.ProcessEnv,
 *   nodeArgs?: string[], say?: (line: string) => void }} options   (nodeArgs: node's own flags for every process, such as --cpu-prof)
 */
export function distributedSystem(options) {
  const {
    port = 8080,
    dataDir,
    postgresUrl = DEFAULTS.postgresUrl,
    natsUrl = DEFAULTS.natsUrl,
    databasePrefix = DEFAULTS.databasePrefix,
    chainPort = 50070,
    logLevel = 'info',
    nodeArgs = [],
    say = (line) => console.log(`[distributed] ${line}`),
  } = options;
  const replicasOf = (app) =>
    typeof options.replicas === 'number' ? options.replicas : (options.replicas?.[app] ?? options.replicas?.default ?? 1);
  const logs = join(dataDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const publicUrl = options.env?.CTK_PUBLIC_URL || `http://localhost:${port}`;
  const { DATABASE_URL: _shared, ...inherited } = options.env ?? process.env;
  const base = { ...inherited, CTK_DATA_DIR: dataDir, LOG_LEVEL: logLevel, NATS_URL: natsUrl };
  const apps = new Map(); // name -> { replicas, balancer }
  let closing = false;
  const system = {
    start,
    closing: () => closing,
    apps,
    base: publicUrl.replace(/\/$/, ''),
    chainUrl: `http://127.0.0.1:${chainPort}`,
    logs,
    /** Every replica of every app, the chain's too. */
    replicas: () => [...apps.values()].flatMap((app) => app.replicas),
    async close() {
      closing = true;
      // The gateway first (no new calls), then the services in reverse (relays drain), then the chain.
      for (const [, app] of [...apps].reverse()) {
        await Promise.all(app.replicas.map((replica) => replica.stop()));
        await app.balancer?.close();
      }
    },
  };

  return system;

  async function start() {
    await startApps();
    writePrometheusConfig(system, dataDir);
  }

  async function startApps() {
    if (await answers(`${system.chainUrl}/v1/bsv/local/chain/info`).catch(() => false))
      say(`using the local chain another instance started at ${system.chainUrl}`);
    else
      await startApp(system, {
        name: 'chain',
        count: 1,
        args: [...nodeArgs, join(root, 'packages/chain/bin/local-chain.mjs')],
        env: () => ({ ...base, CHAIN_PORT: String(chainPort) }),
        fixedPort: chainPort,
        probe: (replicaPort) => answers(`http://127.0.0.1:${replicaPort}/v1/bsv/local/chain/info`),
        logs,
        say,
      });
    const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: system.chainUrl };
    const addresses = {};
    for (const name of startOrder()) {
      const databaseUrl = await databaseOf(name);
      const callees = Object.fromEntries(callsOf(name).map((callee) => [grpcUrlVariable(callee), addresses[grpcUrlVariable(callee)]]));
      const own = name === 'federation' ? { FEDERATION_PUBLIC_URL: base.FEDERATION_PUBLIC_URL || publicUrl } : {};
      const app = await startApp(system, {
        name,
        count: replicasOf(name),
        args: [...nodeArgs, join(root, `apps/${name}/dist/server.js`)],
        env: (replicaPort) => ({
          ...base,
          ...chainEnv,
          ...own,
          ...callees,
          DATABASE_URL: databaseUrl,
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(replicaPort),
        }),
        balancerPort: Number(inherited[`${name.toUpperCase()}_GRPC_PORT`] ?? 0),
        probe: async (replicaPort) => (await grpcHealthStatus(`127.0.0.1:${replicaPort}`)) === 'SERVING',
        logs,
        say,
      });
      addresses[grpcUrlVariable(name)] = `127.0.0.1:${app.balancer.port}`;
    }
    const gatewayDatabase = await databaseOf('gateway');
    const backOffice = base.CTK_BACK_OFFICE_DIR ?? resolve(root, 'apps/back-office/dist');
    await startApp(system, {
      name: 'gateway',
      count: replicasOf('gateway'),
      args: [...nodeArgs, join(root, 'apps/gateway/dist/server.js')],
      env: (replicaPort) => ({
        ...base,
        ...addresses,
        DATABASE_URL: gatewayDatabase,
        HOST: '127.0.0.1',
        PORT: String(replicaPort),
        CTK_PUBLIC_URL: publicUrl,
        CTK_BACK_OFFICE_DIR: backOffice,
      }),
      balancerPort: port,
      balancerHost: base.HOST ?? '127.0.0.1',
      probe: (replicaPort) => answers(`http://127.0.0.1:${replicaPort}/readyz`),
      logs,
      say,
    });
  }

  /** The app's own database: <APP>_DATABASE_URL, else `<prefix>_<app>` on the server, made when missing. */
  function databaseOf(name) {
    return inherited[`${name.toUpperCase()}_DATABASE_URL`] || ensureDatabase(postgresUrl, `${databasePrefix}_${name}`);
  }
}

/** An app's replicas, started side by side, and (unless it has a fixed port) the balancer in front of them. */
async function startApp(system, spec) {
  if (system.closing()) throw new Error('stopped while starting');
  const replicas = [];
  for (let index = 0; index < spec.count; index++) {
    const port = spec.fixedPort ?? (await freePort());
    // An app's metrics on a port of its own (the chain has none), as its pod exposes them to Prometheus.
    const metricsPort = spec.fixedPort === undefined ? await freePort() : undefined;
    const replicaName = spec.count === 1 ? spec.name : `${spec.name}-${index}`;
    replicas.push(
      new Replica({
        name: replicaName,
        port,
        metricsPort,
        args: spec.args,
        env: { ...spec.env(port), ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}) },
        logFile: join(spec.logs, `${replicaName}.log`),
        probe: spec.probe,
        say: spec.say,
      }),
    );
  }
  const app = { name: spec.name, replicas, balancer: undefined };
  system.apps.set(spec.name, app);
  // The balancer holds its port before the replicas start: the gateway's is the PORT a caller chose, which this
  // process's freePort() could otherwise hand a replica meanwhile. Until a replica is ready it closes connections.
  if (spec.fixedPort === undefined)
    app.balancer = await startBalancer({ host: spec.balancerHost, port: spec.balancerPort, replicas: () => replicas });
  await Promise.all(replicas.map((replica) => replica.start()));
  if (system.closing()) {
    await app.balancer?.close();
    throw new Error('stopped while starting');
  }
  return app;
}

/**
 * Where Prometheus finds every replica's metrics (file_sd: job `ctk-<app>`, as the alerts and the dashboard of
 * deploy/observability/ select them), and a prometheus.yml that scrapes them every 5 s with those alerts:
 * `prometheus --config.file=<dataDir>/prometheus/prometheus.yml`.
 */
function writePrometheusConfig(system, dataDir) {
  const dir = join(dataDir, 'prometheus');
  mkdirSync(dir, { recursive: true });
  const targets = [...system.apps.values()].flatMap((app) =>
    app.replicas
      .filter((replica) => replica.metricsPort)
      .map((replica) => ({ targets: [`127.0.0.1:${replica.metricsPort}`], labels: { job: `ctk-${app.name}`, replica: replica.name } })),
  );
  writeFileSync(join(dir, 'targets.json'), `${JSON.stringify(targets, null, 2)}\n`);
  const alerts = resolve(root, 'deploy/observability/alerts.yml');
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 5s\n  evaluation_interval: 5s\nrule_files:\n  - ${JSON.stringify(alerts)}\nscrape_configs:\n  - job_name: ctk\n    file_sd_configs:\n      - files: [${JSON.stringify(join(dir, 'targets.json'))}]\n`,
  );
  system.prometheusConfig = join(dir, 'prometheus.yml');
}

async function answers(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return response.ok;
}
