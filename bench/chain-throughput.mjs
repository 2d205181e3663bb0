// Local chain throughput: how many transactions per second the local chain validates and records. Chains of
// P2PKH payments are signed in advance (each spends the previous one's change), then broadcast as fast as
// possible: over HTTP through the chain client's ARC adapter to a local chain in its own process, and
// in-process straight into the chain (validation and the store, no HTTP). Every transaction goes through
// the full validation: UTXO lookup, fee, and the script check on each input, once with @bsv/sdk's
// interpreter for every input (scriptChecks 'sdk') and once with the fast P2PKH path (libsecp256k1, 'fast').
// Usage: pnpm bench:chain [--txs N] [--chains C] [--checks sdk,fast]  (build first)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient, scriptCheckEngine } from '@ctk/chain';
import { mineBlocks, requestFaucet, startLocalChain } from '@ctk/chain/local';

const { values: args } = parseArgs({
  options: {
    txs: { type: 'string', default: '2000' },
    chains: { type: 'string', default: '8' },
    checks: { type: 'string', default: 'sdk,fast' },
  },
});
const TXS = Number(args.txs);
const CHAINS = Number(args.chains);
const PER_CHAIN = Math.ceil(TXS / CHAINS);
const FEE = 10;

/** `CHAINS` independent chains of `PER_CHAIN` payments, each funded by the faucet of the chain at `url`. */
async function prepare(url) {
  const chains = [];
  for (let c = 0; c < CHAINS; c++) {
    const key = PrivateKey.fromRandom();
    const address = key.toAddress('testnet');
    const funding = await requestFaucet(url, address, 10_000_000);
    let source = Transaction.fromHex(funding.raw_tx);
    let vout = funding.vout;
    const txs = [];
    for (let i = 0; i < PER_CHAIN; i++) {
      const tx = new Transaction();
      tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
      tx.addOutput({ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')), satoshis: 1 });
      tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis: source.outputs[vout].satoshis - 1 - FEE });
      await tx.sign();
      txs.push(tx);
      // Signing blocks the event loop; yielding now and then lets fetch see the server close an idle
      // keep-alive socket (else the next request may go out on it and fail with UND_ERR_SOCKET).
      if (i % 20 === 19) await new Promise((r) => setTimeout(r, 1));
      source = tx;
      vout = 1;
    }
    chains.push(txs);
  }
  await mineBlocks(url);
  return chains;
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

async function overHttp(scriptChecks) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-chain-'));
  const port = await freePort();
  const bin = resolve(import.meta.dirname, '../packages/chain/bin/local-chain.mjs');
  const child = spawn(process.execPath, [bin], {
    env: {
      ...process.env,
      CHAIN_PORT: String(port),
      CTK_DATA_DIR: dataDir,
      CHAIN_MINE_INTERVAL_MS: '0',
      CHAIN_SCRIPT_CHECKS: scriptChecks,
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        const health = await fetch(`${url}/healthz`);
        await health.text();
        if (health.ok) break;
      } catch {
        if (i > 100) throw new Error('the local chain did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const chains = await prepare(url);
    const client = createChainClient({ network: 'local', localUrl: url, retries: 0 });
    const started = performance.now();
    await Promise.all(
      chains.map(async (txs) => {
        for (const tx of txs) await client.broadcast(tx.toBinary());
      }),
    );
    return report(
      `${scriptChecks}: over HTTP (ARC adapter -> local chain process, data dir)`,
      chains.flat().length,
      performance.now() - started,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function inProcess(scriptChecks) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-chain-'));
  const running = await startLocalChain({ port: 0, dataDir, scriptChecks });
  try {
    const chains = await prepare(running.url);
    const ordered = chains.flat().map((tx) => Uint8Array.from(tx.toBinary()));
    const started = performance.now();
    for (const bytes of ordered) {
      const outcome = running.chain.submit(bytes);
      if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.rejection)}`);
    }
    return report(`${scriptChecks}: in process (LocalChain.submit, data dir)`, ordered.length, performance.now() - started);
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(label, count, ms) {
  const rate = Math.round(count / (ms / 1000));
  console.log(`  ${label}: ${count} transactions in ${(ms / 1000).toFixed(2)} s: ${rate} tx/s`);
  return rate;
}

console.log(`Local chain throughput: ${CHAINS} chains of ${PER_CHAIN} P2PKH payments, signed in advance`);
console.log(
  `  script checks: sdk = @bsv/sdk's interpreter on every input; fast = P2PKH with ${scriptCheckEngine()}, the rest in the interpreter`,
);
const rates = {};
for (const scriptChecks of args.checks.split(',')) {
  rates[scriptChecks] = { http: await overHttp(scriptChecks), inProcess: await inProcess(scriptChecks) };
}
if (rates.sdk && rates.fast) {
  const ratio = (key) => (rates.fast[key] / rates.sdk[key]).toFixed(1);
  console.log(`  fast / sdk: ${ratio('http')}x over HTTP, ${ratio('inProcess')}x in process`);
}
