/** Used when the broadcaster does not publish its policy: 100 satoshis per 1000 bytes, above any BSV miner's minimum today. */
export const DEFAULT_SATS_PER_KB = 100;

/** The broadcaster's mining fee from ARC's `GET /v1/policy`, in satoshis per 1000 bytes. */
export async function feeRate(arcUrl: string): Promise<number> {
  try {
    const response = await fetch(`${arcUrl}/v1/policy`, { signal: AbortSignal.timeout(5_000), redirect: 'error' });
    if (!response.ok) return DEFAULT_SATS_PER_KB;
    const { policy } = (await response.json()) as { policy?: { miningFee?: { satoshis?: number; bytes?: number } } };
    const { satoshis, bytes } = policy?.miningFee ?? {};
    if (typeof satoshis !== 'number' || typeof bytes !== 'number' || bytes <= 0 || satoshis < 0) return DEFAULT_SATS_PER_KB;
    return (satoshis * 1000) / bytes;
  } catch {
    return DEFAULT_SATS_PER_KB;
  }
}
