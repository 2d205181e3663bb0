import { readFileSync } from 'node:fs';

const NAMES = ['icon.png', 'icon@2x.png', 'logo.png', 'logo@2x.png'] as const;

/**
 * The images every Apple pass carries (apps/pos/assets/passes, drawn by make-pass-images.mjs there): read
 * once, at start, from the package's assets folder (beside dist/ in the deployed bundle).
 */
export function passImages(): Record<(typeof NAMES)[number], Buffer> {
  const folder = new URL('../../assets/passes/', import.meta.url);
  return Object.fromEntries(NAMES.map((name) => [name, readFileSync(new URL(name, folder))])) as Record<(typeof NAMES)[number], Buffer>;
}
