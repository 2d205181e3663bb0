/** Where a command writes and what it reads from the environment; the bin passes the process's, tests their own. */
export type WalletIo = {
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
};

export const processIo: WalletIo = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Prints the answer: JSON with --json (for scripts and tests), else `key: value` lines for people. */
export function report(io: WalletIo, json: boolean, value: Record<string, unknown>, lines?: string[]): void {
  if (json) return io.out(JSON.stringify(value));
  for (const line of lines ?? Object.entries(value).map(([key, v]) => `${key}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`))
    io.out(line);
}
