import type { Config } from '../config.js';

/** Paymail handles of this instance are `<alias>@<host of the public URL>`. */
export function paymailDomain(config: Pick<Config, 'CTK_PUBLIC_URL'>): string {
  return new URL(config.CTK_PUBLIC_URL).hostname;
}
