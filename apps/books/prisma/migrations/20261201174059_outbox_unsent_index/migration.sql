-- The relay claims the oldest unsent rows (ORDER BY created_at, id ... LIMIT, packages/shared/src/events/outbox-relay.ts)
-- by an index scan of the unsent rows alone, in that order: a scan that marks the entries of rows sent since as
-- dead as it passes them, so each claim visits only what was sent since the one before. On (sent_at, created_at)
-- the planner sorted a bitmap scan instead, which visits every row sent since the last vacuum on every claim.
-- Prisma's schema cannot declare a partial index (packages/shared/prisma/outbox.prisma names it).
DROP INDEX "outbox_events_sent_at_created_at_idx";

CREATE INDEX "outbox_events_unsent_idx" ON "outbox_events" ("created_at", "id") WHERE "sent_at" IS NULL;
