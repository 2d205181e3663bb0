import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

// Debian's chromium, driven by playwright-core (no browser download). CI installs it (.ci/run).
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether the browser tests can run here; without chromium, says that `testFile` is skipped and why. */
export function chromiumInstalled(testFile: string): boolean {
  const installed = existsSync(CHROMIUM);
  if (!installed) console.warn(`${testFile} skipped: ${CHROMIUM} is not installed (apt-get install chromium).`);
  return installed;
}

/** Headless chromium on a fresh profile under `dir`, in English, with a window of `viewport`. */
export function openChromium(dir: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    locale: 'en-US',
    viewport,
  });
}
