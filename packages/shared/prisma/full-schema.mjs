// An app's whole Prisma schema: its own (apps/<app>/prisma/schema.prisma) followed by the models
// @ctk/shared ships to every app (the outbox), so no app copies them. An app's build (scripts/prisma-generate.mjs) and
// `ctk-prisma-migration` both read an app's schema through here. Plain JavaScript: it runs before any build.
import { readFileSync } from 'node:fs';

const OUTBOX = readFileSync(new URL('./outbox.prisma', import.meta.url), 'utf8');

/** The schema text of an app whose own models are `appSchema`. */
export function fullSchema(appSchema) {
  if (/^\s*model\s+OutboxEvent\s*\{/m.test(appSchema)) {
    throw new Error('The schema declares OutboxEvent itself: remove it, @ctk/shared adds the outbox model to every app.');
  }
  return `${appSchema.trimEnd()}\n\n// ---- added by @ctk/shared (packages/shared/prisma/outbox.prisma) ----\n\n${OUTBOX}`;
}
