import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HD } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  distributedUnavailable,
  freePort,
  ROOT,
  startDistributedInstance,
  startInstance,
  stopInstance,
  until,
  type Instance,
} from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The README's fenced `sh` blocks, each as its commands: continuation lines joined, comments dropped. */
function readmeBlocks(): string[][] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) =>
    (match[1] as string)
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => withoutComment(line).trim())
      .filter(Boolean),
  );
}

/** The first block that holds `marker`. */
function block(blocks: string[][], marker: string): string[] {
  const found = blocks.find((commands) => commands.some((command) => command.includes(marker)));
  if (!found) throw new Error(`No README block runs ${marker}.`);
  return found;
}

function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) return line.slice(0, i);
  }
  return line;
}

/** Words as sh splits them: single and double quotes (no expansion is used in these commands). */
function words(command: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of command) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  expect(quote, `quotes closed in ${command}`).toBeUndefined();
  if (word !== undefined) out.push(word);
  return out;
}

/** Starting an instance and some twenty commands, each wallet command scanning 20 children: minutes on a loaded machine. */
const SLOW = 300_000;

// The distributed path needs PostgreSQL and the NATS server binary: without them it says why and is skipped.
const skipDistributed = await distributedUnavailable();
if (skipDistributed) console.warn(`The README's path on the distributed path is skipped: ${skipDistributed}`);

/**
 * The newcomer's path, read from README.md and run as written, on a fresh instance of each kind (`npm start`'s one
 * process, and `npm run up:distributed`'s process per app on PostgreSQL and NATS): the onboarding of "Run it",
 * "Pay a merchant locally" (the merchant's HD wallet, its xpub registered, a customer's wallet funded by the
 * faucet's default, a paymail payment) and "Paid per request" (a payment-gate key, a priced route, the example
 * server, `pnpm wallet fetch` paying its 402). Placeholders are filled from what earlier commands printed; the
 * instance's and the example's ports stand in for 8080 and 3000. Then the merchant's `balance` shows what the
 * xpub's children received, and the ledger has both payments (delivered as events by NATS on the distributed path).
 */
describe.each([
  { kind: 'npm start', start: startInstance, skip: undefined },
  { kind: 'npm run up:distributed', start: startDistributedInstance, skip: skipDistributed },
])("the README's newcomer path, command by command, on $kind", ({ start, skip }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-readme-'));
  let instance: Instance;
  let chainPort = 0;
  let apiPort = 0;
  let server: ChildProcess | undefined;
  const values = new Map<string, string>();
  const log: string[] = [];
  const blocks = readmeBlocks();
  // "Run it" (the first onboarding), "Pay a merchant locally" and "Paid per request (HTTP 402)".
  const runIt = block(blocks, '/api/v1/onboard');
  const payLocally = block(blocks, 'pnpm wallet --file merchant.json create');
  const paidPerRequest = block(blocks, 'pnpm wallet fetch');

  beforeAll(async () => {
    chainPort = await freePort();
    apiPort = await freePort();
    if (skip) return;
    instance = await start({ port: await freePort(), dataDir: join(dir, 'instance'), chainPort });
  }, SLOW);

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The command with the values printed so far in place of its placeholders, and this machine's ports. */
  function filled(command: string): string {
    let text = command
      .replaceAll('localhost:8080', instance.base.replace('http://', ''))
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${apiPort}`);
    for (const [placeholder, value] of values) text = text.replaceAll(placeholder, value);
    const left = /<[a-z_ ]+>|ctk_[a-z]{2}_\.\.\./.exec(text);
    expect(left, `a placeholder nothing printed before: ${command}`).toBeNull();
    return text;
  }

  async function curl(args: string[]): Promise<Json> {
    let method: string | undefined;
    let body: string | undefined;
    let url: string | undefined;
    const headers: Record<string, string> = {};
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === '-X') method = args[++i];
      else if (arg === '-H') {
        const [name, ...value] = (args[++i] as string).split(':');
        headers[(name as string).trim()] = value.join(':').trim();
      } else if (arg === '-d') body = args[++i];
      else if (/^-[si]+$/.test(arg)) continue;
      else if (!arg.startsWith('-') && url === undefined) url = arg.startsWith('http') ? arg : `http://${arg}`;
      else throw new Error(`curl ${arg}: not an option this test reads`);
    }
    const response = await fetch(url as string, { method: method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const answer = (await response.json()) as Json;
    expect(response.ok, `curl ${args.join(' ')}: ${response.status} ${JSON.stringify(answer)}`).toBe(true);
    if (typeof answer.api_key?.key === 'string') values.set('ctk_sk_...', answer.api_key.key);
    if (typeof answer.key === 'string' && answer.key.startsWith('ctk_pg_')) values.set('ctk_pg_...', answer.key);
    if (typeof answer.account_id === 'string') values.set('<account_id>', answer.account_id);
    return answer;
  }

  /** `pnpm wallet ...` is `node packages/wallet/bin/ctk-wallet.mjs ...` (the root package.json), run in the newcomer's directory. */
  async function pnpmWallet(args: string[]): Promise<{ stdout: string; stderr: string }> {
    const run = await promisify(execFile)(process.execPath, [join(ROOT, 'packages/wallet/bin/ctk-wallet.mjs'), ...args], {
      cwd: dir,
      env: { ...process.env, HOME: dir, CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: `http://127.0.0.1:${chainPort}` },
    });
    const merchant = args[0] === '--file' && args[1] === 'merchant.json';
    for (const line of run.stdout.split('\n')) {
      const printed = /^(address|public key|xpub|txid):\s+(\S+)$/.exec(line);
      if (!printed) continue;
      const [, name, value] = printed as unknown as [string, string, string];
      if (name === 'txid') values.set('<txid>', value);
      else if (merchant) values.set(`<merchant ${name}>`, value);
    }
    return run;
  }

  /** `VAR=value ... node examples/paid-api/src/server.mjs &`: started with the README's variables and this machine's ports. */
  async function startServer(args: string[]): Promise<void> {
    const env: Record<string, string> = { PATH: process.env.PATH as string };
    while (/^[A-Z_]+=/.test(args[0] as string)) {
      const [name, ...value] = (args.shift() as string).split('=');
      env[name as string] = value.join('=');
    }
    expect(args).toEqual(['node', 'examples/paid-api/src/server.mjs', '&']);
    server = spawn(process.execPath, [join(ROOT, args[1] as string)], {
      cwd: ROOT,
      env: { ...env, CTK_GATEWAY: instance.base, PAID_API_PORT: String(apiPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready, fail) => {
      server!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Paid API on') && ready());
      server!.once('exit', (code) => fail(new Error(`the paid API exited with ${code}`)));
    });
  }

  async function run(commands: string[]): Promise<Array<{ command: string; out: string; err: string }>> {
    const results = [];
    for (const command of commands) {
      const args = words(filled(command));
      let out = '';
      let err = '';
      if (args[0] === 'curl') out = JSON.stringify(await curl(args.slice(1)));
      else if (args[0] === 'pnpm' && args[1] === 'wallet') ({ stdout: out, stderr: err } = await pnpmWallet(args.slice(2)));
      else if (args.includes('examples/paid-api/src/server.mjs')) await startServer(args);
      else throw new Error(`A README command this test does not run: ${command}`);
      log.push(`$ ${command}\n${out}${err}`);
      results.push({ command, out, err });
    }
    return results;
  }

  it.skipIf(skip)(
    "onboards, gives the organisation the HD wallet's xpub, pays its paymail, prices a route and pays its 402 with `pnpm wallet fetch`",
    async () => {
      await run(runIt);
      const local = await run(payLocally);
      const xpub = values.get('<merchant xpub>') as string;
      expect(xpub).toMatch(/^xpub/);
      const merchantXpub = (await pnpmWallet(['--file', 'merchant.json', 'xpub'])).stdout.trim();
      expect(merchantXpub).toBe(xpub);
      // The faucet's default, as the README runs it, pays a typical order (a $22.70 order is 45,400,000 satoshis).
      const faucet = local.find((step) => step.command === 'pnpm wallet faucet');
      expect(Number(/Received (\d+) satoshis/.exec(faucet?.out ?? '')?.[1])).toBeGreaterThanOrEqual(4 * 45_400_000);

      const paid = await run(paidPerRequest);
      const fetched = paid.find((step) => step.command.startsWith('pnpm wallet fetch')) as { out: string; err: string };
      expect(JSON.parse(fetched.out)).toMatchObject({ city: 'lisbon' });
      expect(fetched.err).toMatch(/^Paid 100 satoshis for GET http:\/\/127\.0\.0\.1:\d+\/weather\/lisbon/);
      // The next call is one of the ten bought: served on the credential, nothing paid.
      const again = paid.filter((step) => step.command.startsWith('pnpm wallet fetch'))[1] as { out: string };
      expect(JSON.parse(again.out)).toMatchObject({ status: 200, paid: null, body: { city: 'porto' } });

      // The merchant's wallet finds both payments on children m/0/n of the xpub it registered.
      const balance = (paid.at(-1) as { command: string; out: string }).out.trim().split('\n');
      expect(paid.at(-1)?.command).toBe('pnpm wallet --file merchant.json balance');
      expect(balance[0], log.join('\n')).toMatch(/^1600 satoshis \(\d+ confirmed, \d+ unconfirmed\) in 2 coins$/);
      const children = balance.slice(1).map((line) => /^ {2}(\d+) at (\w+) \(m\/0\/(\d+)\)$/.exec(line));
      expect(children.every(Boolean), balance.join('\n')).toBe(true);
      const received = children.map((match) => ({ satoshis: Number(match![1]), address: match![2], child: Number(match![3]) }));
      expect(received.map((child) => child.satoshis).sort((a, b) => a - b)).toEqual([100, 1500]);
      const master = HD.fromString(xpub);
      for (const child of received) expect(child.address).toBe(master.derive(`m/0/${child.child}`).pubKey.toAddress('testnet'));

      // The books have both payments, BSV in at 1010, and the trial balance balances.
      const key = values.get('ctk_sk_...') as string;
      const ledger = await until(
        () => api(instance.base, 'GET', '/api/v1/orgs/blue-bottle-cafe/ledger', key),
        (answer) => (answer.body.data?.length ?? 0) >= 2,
        'the ledger entries of both payments',
      );
      const cashIn = ledger.body.data.map((entry: Json) => entry.lines.find((line: Json) => line.account_code === '1010')?.debit_minor);
      expect(cashIn.sort((a: number, b: number) => a - b)).toEqual([100, 1500]);
      const trial = (await api(instance.base, 'GET', '/api/v1/orgs/blue-bottle-cafe/reports/trial-balance', key)).body;
      for (const row of trial.data) expect(Number(row.total_debit_minor), row.currency).toBe(Number(row.total_credit_minor));
    },
    SLOW,
  );
});
