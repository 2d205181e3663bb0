import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

export type StoredChain = {
  blocks: StoredBlock[];
  mempool: string[];
  keys: Partial<Record<ChainKeyName, string>>;
  /** How far the chain's clock runs ahead of real time, in seconds (`POST /clock`); 0 when never moved. */
  clockOffsetSeconds: number;
};

/** Where the local chain keeps its blocks, mempool, keys and clock between restarts. */
export interface ChainStore {
  readonly location: string;
  load(): StoredChain;
  appendBlock(block: StoredBlock): void;
  appendMempool(rawHex: string): void;
  clearMempool(): void;
  saveKey(name: ChainKeyName, wif: string): void;
  saveClockOffset(seconds: number): void;
}

/** Nothing kept: the chain lives as long as its process (tests). */
export function memoryStore(): ChainStore {
  return {
    location: 'memory',
    load: () => ({ blocks: [], mempool: [], keys: {}, clockOffsetSeconds: 0 }),
    appendBlock: () => {},
    appendMempool: () => {},
    clearMempool: () => {},
    saveKey: () => {},
    saveClockOffset: () => {},
  };
}

/**
 * Append-only files under `<dir>`: `blocks.jsonl` (a block per line), `mempool.jsonl` (a raw transaction
 * per line, emptied once they are mined), a `<name>.wif` per key (mode 0600) and `clock.json` (the clock's
 * offset, `{"offset_seconds": n}`, replaced whole). A line cut short by a crash is skipped on load.
 */
export function fileStore(dir: string): ChainStore {
  mkdirSync(dir, { recursive: true });
  const blocksFile = join(dir, 'blocks.jsonl');
  const mempoolFile = join(dir, 'mempool.jsonl');
  const keyFile = (name: ChainKeyName) => join(dir, `${name}.wif`);
  const clockFile = join(dir, 'clock.json');
  return {
    location: dir,
    load: () => ({
      blocks: readLines(blocksFile).flatMap((line) => parseJson<StoredBlock>(line) ?? []),
      mempool: readLines(mempoolFile).flatMap((line) => parseJson<string>(line) ?? []),
      keys: Object.fromEntries(
        CHAIN_KEYS.filter((name) => existsSync(keyFile(name))).map((name) => [name, readFileSync(keyFile(name), 'utf8').trim()]),
      ),
      clockOffsetSeconds: readClockOffset(clockFile),
    }),
    appendBlock: (block) => appendFileSync(blocksFile, `${JSON.stringify(block)}\n`),
    appendMempool: (rawHex) => appendFileSync(mempoolFile, `${JSON.stringify(rawHex)}\n`),
    clearMempool: () => writeFileSync(mempoolFile, ''),
    saveKey: (name, wif) => writeFileSync(keyFile(name), `${wif}\n`, { mode: 0o600 }),
    saveClockOffset: (seconds) => {
      // Written aside and renamed over the old one, so a crash leaves one whole file or the other.
      writeFileSync(`${clockFile}.tmp`, `${JSON.stringify({ offset_seconds: seconds })}\n`);
      renameSync(`${clockFile}.tmp`, clockFile);
    },
  };
}

/** The stored offset; 0 for a store from before the clock (or a file that is not one). */
function readClockOffset(file: string): number {
  if (!existsSync(file)) return 0;
  const offset = parseJson<{ offset_seconds?: unknown }>(readFileSync(file, 'utf8'))?.offset_seconds;
  return Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : 0;
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
