// Starts the local chain, the six services and the gateway, each as its own process, with embedded defaults:
// PGlite databases under CTK_DATA_DIR (default .data), the local chain's blocks in CTK_DATA_DIR/chain, no
// external database, broker or blockchain needed. CHAIN_PORT moves the local chain (default 50070);
// CHAIN_NETWORK=main or test skips it (the apps then talk to ARC and WhatsOnChain).
// <APP>_GRPC_PORT moves a service (e.g. POS_GRPC_PORT=51062); PORT moves the gateway.
// <APP>_DATABASE_URL (e.g. GATEWAY_DATABASE_URL, POS_DATABASE_URL) puts that app on PostgreSQL: each app
// has a database of its own, so a plain DATABASE_URL is not passed on.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(process.env.CTK_DATA_DIR ?? '.data');
const port = process.env.PORT ?? '8080';
const SERVICES = { books: 50061, pos: 50062, commerce: 50063, p2p: 50064, federation: 50065, contracts: 50066 };

const children = new Map();
let stopping = false;

function start(name, env, script = `apps/${name}/dist/server.js`) {
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  const databaseUrl = process.env[`${name.toUpperCase()}_DATABASE_URL`];
  const child = spawn(process.execPath, [resolve(root, script)], {
    cwd: root,
    env: { ...inherited, CTK_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? code}); stopping everything.`);
      stop(1);
    } else if (children.size === 0) process.exit(process.exitCode ?? 0);
  });
  children.set(name, child);
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
}

async function waitForGateway() {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

const chainNetwork = process.env.CHAIN_NETWORK || 'local';
const chainPort = process.env.CHAIN_PORT || '50070';
const chainUrl = `http://127.0.0.1:${chainPort}`;
if (chainNetwork === 'local') start('chain', { CHAIN_PORT: chainPort }, 'packages/chain/bin/local-chain.mjs');

// Every app reads the chain client's config (CHAIN_*, see packages/chain): here, the local chain.
const chainEnv = chainNetwork === 'local' ? { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chainUrl } : {};
const addresses = {};
for (const [name, defaultPort] of Object.entries(SERVICES)) {
  const grpcPort = process.env[`${name.toUpperCase()}_GRPC_PORT`] ?? String(defaultPort);
  start(name, { GRPC_PORT: grpcPort, ...chainEnv });
  addresses[`${name.toUpperCase()}_GRPC_URL`] = `127.0.0.1:${grpcPort}`;
}
start('gateway', { PORT: port, ...addresses, ...chainEnv });
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

if (await waitForGateway()) {
  const base = `http://localhost:${port}`;
  console.log(`
Commerce Toolkit is running at ${base} (data in ${dataDir}).
  Docs:          ${base}/docs
  API map:       ${base}/api/v1/capabilities
  Onboard:       curl -s -X POST ${base}/api/v1/onboard -H 'content-type: application/json' -d '{"name": "My Cafe"}'
  Who am I:      curl -s ${base}/api/v1/me -H "authorization: Bearer <api_key from onboarding>"
${chainNetwork === 'local' ? `  Local chain:   ${chainUrl} (ARC; WhatsOnChain at ${chainUrl}/v1/bsv/local)
  Faucet:        curl -s -X POST ${chainUrl}/faucet -H 'content-type: application/json' -d '{"address": "<P2PKH address>", "satoshis": 100000}'
  Mine a block:  curl -s -X POST ${chainUrl}/mine
` : `  Chain:         ${chainNetwork} (ARC and WhatsOnChain)
`}Stop with Ctrl-C.
`);
} else {
  console.error('The gateway did not become healthy within 60 s.');
  stop(1);
}
