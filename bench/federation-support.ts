// What the federation benchmarks share: an instance (p2p, books, pos, the gateway and federation, in this
// process, on a local chain it is given), the size of a GetFeed answer, seeded random numbers, places around
// cities, memory samples, and calls made N at a time.
import type { RunningLocalChain } from '@ctk/chain/local';
import { FederationServiceDefinition, GetFeedRequest } from '@ctk/proto/ctk/federation/v1/federation';
import * as grpc from '@grpc/grpc-js';
import { createLogger, grpcUrlVariable, inProcessTransport, loadConfig, SERVICE_NAMES, startService } from '@ctk/shared';
import { freePort } from './support.js';

type Running = { close(): Promise<void> };
export type Instance = Awaited<ReturnType<typeof startInstance>>;

/**
 * One instance as `pnpm up` runs it, minus what federation does not need: p2p, books and pos on one in-process
 * transport, then the gateway (HTTP at http://127.0.0.1:<port>, its public URL), then federation with
 * `federation`'s variables, its public URL the gateway's (both ports are chosen first, so the gateway can name
 * federation's and federation its origin). `database(app)`: a PostgreSQL URL, or undefined for PGlite in `dataDir`.
 * With `holdFederation`, federation is started only by `startFederation()`.
 */
export async function startInstance(options: {
  chain: RunningLocalChain;
  dataDir: string;
  database: (app: string) => string | undefined;
  federation?: Record<string, string>;
  holdFederation?: boolean;
  logLevel?: string;
}) {
  const { chain, dataDir, database, logLevel = 'warn' } = options;
  const env = (app: string, variables: Record<string, string>) => {
    const url = database(app);
    return { CTK_DATA_DIR: dataDir, LOG_LEVEL: logLevel, ...(url ? { DATABASE_URL: url } : {}), ...variables };
  };
  const transport = inProcessTransport({ logger: createLogger('transport', logLevel) });
  const addresses: Record<string, string> = Object.fromEntries(SERVICE_NAMES.map((name) => [grpcUrlVariable(name), '127.0.0.1:1']));
  const federationPort = await freePort();
  addresses[grpcUrlVariable('federation')] = `127.0.0.1:${federationPort}`;
  const running: Running[] = [];
  const start = async (name: string, variables: Record<string, string>) => {
    const { configSchema, service } = await import(`../apps/${name}/dist/app.js`);
    const config = loadConfig(configSchema, env(name, { ...addresses, CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, ...variables }));
    const app = await startService(service, config, { logger: createLogger(name, logLevel), transport });
    running.push(app);
    return app;
  };
  for (const name of ['p2p', 'books', 'pos'] as const)
    addresses[grpcUrlVariable(name)] = `127.0.0.1:${(await start(name, { GRPC_PORT: '0', POS_WATCH_INTERVAL_MS: '0' })).port}`;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { service: gatewayService } = await import('../apps/gateway/dist/app.js');
  const { configSchema: gatewayConfig } = await import('../apps/gateway/dist/config.js');
  const limits = ['RATE', 'SIGNUP_RATE', 'PEER_EXCHANGE_RATE', 'FEEDS_RATE'].map((name) => [`CTK_${name}_LIMIT_PER_MINUTE`, '100000000']);
  const gatewayEnv = { ...addresses, PORT: String(port), HOST: '127.0.0.1', CTK_PUBLIC_URL: base, ...Object.fromEntries(limits) };
  running.push(await startService(gatewayService, loadConfig(gatewayConfig, env('gateway', gatewayEnv))));

  const startFederation = () =>
    start('federation', { GRPC_PORT: String(federationPort), FEDERATION_PUBLIC_URL: base, ...options.federation });
  if (!options.holdFederation) await startFederation();
  return {
    base,
    port,
    addresses,
    startFederation,
    /** Closes everything started, the last first, then the transport (the chain is the caller's). */
    async stop() {
      for (const app of running.reverse()) await app.close().catch(() => undefined);
      await transport.close();
    },
  };
}

/** A seeded generator of numbers in [0, 1) (mulberry32), so that two runs ask for the same places. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Twenty cities (latitude, longitude, time zone) the pins and shops cluster around. */
export const CITIES: readonly [number, number, string][] = [
  [51.5072, -0.1276, 'Europe/London'],
  [48.8566, 2.3522, 'Europe/Paris'],
  [52.52, 13.405, 'Europe/Berlin'],
  [40.4168, -3.7038, 'Europe/Madrid'],
  [41.9028, 12.4964, 'Europe/Rome'],
  [59.3293, 18.0686, 'Europe/Stockholm'],
  [40.7128, -74.006, 'America/New_York'],
  [37.7749, -122.4194, 'America/Los_Angeles'],
  [41.8781, -87.6298, 'America/Chicago'],
  [43.6532, -79.3832, 'America/Toronto'],
  [19.4326, -99.1332, 'America/Mexico_City'],
  [-23.5505, -46.6333, 'America/Sao_Paulo'],
  [-34.6037, -58.3816, 'America/Argentina/Buenos_Aires'],
  [6.5244, 3.3792, 'Africa/Lagos'],
  [30.0444, 31.2357, 'Africa/Cairo'],
  [19.076, 72.8777, 'Asia/Kolkata'],
  [1.3521, 103.8198, 'Asia/Singapore'],
  [35.6762, 139.6503, 'Asia/Tokyo'],
  [37.5665, 126.978, 'Asia/Seoul'],
  [-33.8688, 151.2093, 'Australia/Sydney'],
];

/** A place around a city, a Gaussian `sigmaKm` away in each direction (Box-Muller). */
export function placeNear(random: () => number, [latitude, longitude]: readonly [number, number, ...unknown[]], sigmaKm: number) {
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const north = gauss() * sigmaKm * 1000;
  const east = gauss() * sigmaKm * 1000;
  return {
    latitude: latitude + north / 111_320,
    longitude: longitude + east / (111_320 * Math.cos((latitude * Math.PI) / 180)),
  };
}

/** Samples this process's memory every `everyMs` until stopped; the peaks and the first sample. */
export function sampleMemory(everyMs = 50) {
  const first = process.memoryUsage();
  const peak = { rss: first.rss, heapUsed: first.heapUsed, heapTotal: first.heapTotal, external: first.external };
  const take = () => {
    const now = process.memoryUsage();
    for (const key of Object.keys(peak) as (keyof typeof peak)[]) peak[key] = Math.max(peak[key], now[key]);
  };
  const timer = setInterval(take, everyMs);
  return {
    first,
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The gRPC limit of @ctk/shared's client (wire.ts MAX_MESSAGE_BYTES): the gateway reads no larger answer. */
export const GRPC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The bytes of federation's GetFeed answer for `feedId`, read with a grpc-js client that takes any size. */
export function getFeedAnswerBytes(address: string, feedId: string): Promise<number> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const path = `/${FederationServiceDefinition.fullName}/GetFeed`;
  const encode = (request: GetFeedRequest) => Buffer.from(GetFeedRequest.encode(request).finish());
  return new Promise((answer, fail) =>
    client.makeUnaryRequest(
      path,
      encode,
      (bytes: Buffer) => bytes,
      { feedId },
      (error, bytes) => {
        client.close();
        if (error || !bytes) fail(error);
        else answer(bytes.length);
      },
    ),
  );
}

/** `calls` calls, `concurrency` at a time: each one's milliseconds (sorted), the rows answered, calls a second. */
export async function measure(calls: number, concurrency: number, call: (i: number) => Promise<number>) {
  const times: number[] = [];
  let rows = 0;
  let next = 0;
  const started = performance.now();
  const caller = async () => {
    for (let i = next++; i < calls; i = next++) {
      const at = performance.now();
      rows += await call(i);
      times.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const perSecond = calls / ((performance.now() - started) / 1000);
  return { sorted: times.sort((a, b) => a - b), rows: rows / calls, perSecond };
}
