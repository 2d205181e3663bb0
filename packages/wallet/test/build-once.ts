import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The bin runs the built code: build it once (the package's `build`) before the tests that spawn it. */
export default function setup(): void {
  execFileSync(process.execPath, ['../../scripts/transpile.mjs'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
}
