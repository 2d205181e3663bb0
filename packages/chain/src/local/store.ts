import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockHeader } from './block.js';

/** A block as stored: its header fields and its transactions, raw hex, the coinbase first. */
export type StoredBlock = BlockHeader & { txs: string[] };

/**
 * The local chain's own keys: the faucet's (block 1's coins), the stablecoin treasury's (the USDX it mints)
 * and its test cosigner's, each kept in `<name>.wif`.
 */
export const CHAIN_KEYS = ['faucet', 'treasury', 'cosigner'] as const;
export type ChainKeyName = (typeof CHAIN_KEYS)[number];

export type StoredChain = { blocks: StoredBlock[]; mempool: string[]; keys: Partial<Record<ChainKeyName, string>> };

/** Where the local chain keeps its blocks, mempool and keys between restarts. */
export interface ChainStore {
  readonly location: string;
  load(): StoredChain;
  appendBlock(block: StoredBlock): void;
  appendMempool(rawHex: string): void;
  clearMempool(): void;
  saveKey(name: ChainKeyName, wif: string): void;
}

/** Nothing kept: the chain lives as long as its process (tests). */
export function memoryStore(): ChainStore {
  return {
    location: 'memory',
    load: () => ({ blocks: [], mempool: [], keys: {} }),
    appendBlock: () => {},
    appendMempool: () => {},
    clearMempool: () => {},
    saveKey: () => {},
  };
}

/**
 * Append-only files under `<dir>`: `blocks.jsonl` (a block per line), `mempool.jsonl` (a raw transaction
 * per line, emptied once they are mined) and a `<name>.wif` per key (mode 0600). A line cut short by a crash is skipped on load.
 */
export function fileStore(dir: string): ChainStore {
  mkdirSync(dir, { recursive: true });
  const blocksFile = join(dir, 'blocks.jsonl');
  const mempoolFile = join(dir, 'mempool.jsonl');
  const keyFile = (name: ChainKeyName) => join(dir, `${name}.wif`);
  return {
    location: dir,
    load: () => ({
      blocks: readLines(blocksFile).flatMap((line) => parseJson<StoredBlock>(line) ?? []),
      mempool: readLines(mempoolFile).flatMap((line) => parseJson<string>(line) ?? []),
      keys: Object.fromEntries(
        CHAIN_KEYS.filter((name) => existsSync(keyFile(name))).map((name) => [name, readFileSync(keyFile(name), 'utf8').trim()]),
      ),
    }),
    appendBlock: (block) => appendFileSync(blocksFile, `${JSON.stringify(block)}\n`),
    appendMempool: (rawHex) => appendFileSync(mempoolFile, `${JSON.stringify(rawHex)}\n`),
    clearMempool: () => writeFileSync(mempoolFile, ''),
    saveKey: (name, wif) => writeFileSync(keyFile(name), `${wif}\n`, { mode: 0o600 }),
  };
}

function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function parseJson<T>(line: string): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}
