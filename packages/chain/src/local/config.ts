import { configFields, unsetIfEmpty } from '@ctk/shared';
import { z } from 'zod';
import { LOCAL_CHAIN_DEFAULTS, type StartLocalChainOptions } from './start-local-chain.js';

/** The local chain server's environment (the `ctk-local-chain` bin). */
export const localChainConfigSchema = z.object({
  CHAIN_HOST: z.string().min(1).default('127.0.0.1'),
  CHAIN_PORT: configFields.port(LOCAL_CHAIN_DEFAULTS.port),
  LOG_LEVEL: configFields.logLevel,
  /** Blocks, mempool and the faucet key live in `<CTK_DATA_DIR>/chain`. */
  CTK_DATA_DIR: configFields.dataDir,
  /** `memory` keeps nothing between restarts. */
  CHAIN_STORE: z.enum(['data-dir', 'memory']).default('data-dir'),
  CHAIN_MIN_FEE_SATS_PER_KB: unsetIfEmpty(z.coerce.number().int().min(0).default(LOCAL_CHAIN_DEFAULTS.minFeeSatsPerKb)),
  CHAIN_FAUCET_MAX_SATOSHIS: unsetIfEmpty(
    z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(LOCAL_CHAIN_DEFAULTS.faucetMaxSatoshis),
  ),
  /** The most units of the test stablecoin (USDX, 5 decimals) one stablecoin faucet request pays. */
  CHAIN_STABLECOIN_FAUCET_MAX_UNITS: unsetIfEmpty(
    z
      .string()
      .regex(/^[1-9]\d{0,17}$/, 'a whole number of units from 1 to 999999999999999999')
      .transform(BigInt)
      .default(LOCAL_CHAIN_DEFAULTS.stablecoinFaucetMaxUnits),
  ),
  /** A block every this many milliseconds while the mempool holds transactions; 0 mines only on `POST /mine`. */
  CHAIN_MINE_INTERVAL_MS: unsetIfEmpty(z.coerce.number().int().min(0).default(10_000)),
  /** `fast`: libsecp256k1 for standard P2PKH inputs, the SDK's interpreter for the rest; `sdk`: the interpreter for all. */
  CHAIN_SCRIPT_CHECKS: unsetIfEmpty(z.enum(['fast', 'sdk']).default('fast')),
});

export type LocalChainConfig = z.infer<typeof localChainConfigSchema>;

/** The local chain's start options from its configuration. */
export function localChainOptions(config: LocalChainConfig): StartLocalChainOptions {
  return {
    dataDir: config.CHAIN_STORE === 'memory' ? undefined : config.CTK_DATA_DIR,
    host: config.CHAIN_HOST,
    port: config.CHAIN_PORT,
    minFeeSatsPerKb: config.CHAIN_MIN_FEE_SATS_PER_KB,
    faucetMaxSatoshis: config.CHAIN_FAUCET_MAX_SATOSHIS,
    stablecoinFaucetMaxUnits: config.CHAIN_STABLECOIN_FAUCET_MAX_UNITS,
    mineIntervalMs: config.CHAIN_MINE_INTERVAL_MS,
    scriptChecks: config.CHAIN_SCRIPT_CHECKS,
  };
}
