import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockHeader } from './block.js';

/** A block as stored: its header fields and its transactions, raw hex, the coinbase first. */
export type StoredBlock = BlockHeader & { txs: string[] };

export type StoredChain = { blocks: StoredBlock[]; mempool: string[]; faucetWif?: string };

/** Where the local chain keeps its blocks, mempool and faucet key between restarts. */
export interface ChainStore {
  readonly location: string;
  load(): StoredChain;
  appendBlock(block: StoredBlock): void;
  appendMempool(rawHex: string): void;
  clearMempool(): void;
  saveFaucetKey(wif: string): void;
}

/** Nothing kept: the chain lives as long as its process (tests). */
export function memoryStore(): ChainStore {
  return {
    location: 'memory',
    load: () => ({ blocks: [], mempool: [] }),
    appendBlock: () => {},
    appendMempool: () => {},
    clearMempool: () => {},
    saveFaucetKey: () => {},
  };
}

/**
 * Append-only files under `<dir>`: `blocks.jsonl` (a block per line), `mempool.jsonl` (a raw transaction
 * per line, emptied once they are mined) and `faucet.wif`. A line cut short by a crash is skipped on load.
 */
export function fileStore(dir: string): ChainStore {
  mkdirSync(dir, { recursive: true });
  const blocksFile = join(dir, 'blocks.jsonl');
  const mempoolFile = join(dir, 'mempool.jsonl');
  const keyFile = join(dir, 'faucet.wif');
  return {
    location: dir,
    load: () => ({
      blocks: readLines(blocksFile).flatMap((line) => parseJson<StoredBlock>(line) ?? []),
      mempool: readLines(mempoolFile).flatMap((line) => parseJson<string>(line) ?? []),
      faucetWif: existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined,
    }),
    appendBlock: (block) => appendFileSync(blocksFile, `${JSON.stringify(block)}\n`),
    appendMempool: (rawHex) => appendFileSync(mempoolFile, `${JSON.stringify(rawHex)}\n`),
    clearMempool: () => writeFileSync(mempoolFile, ''),
    saveFaucetKey: (wif) => writeFileSync(keyFile, `${wif}\n`, { mode: 0o600 }),
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
