import { AppError, type Logger } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';

type Deps = Pick<GatewayDeps, 'prisma' | 'services'>;

const LEGACY = { jurisdiction: true, pricesIncludeTax: true, receivingAddress: true, walletXpub: true, identityPublicKey: true } as const;
const COLUMNS = Object.keys(LEGACY) as (keyof typeof LEGACY)[];
/** An organisation whose row still holds any of them, and the row with none. */
const HELD = COLUMNS.map((column) => ({ [column]: { not: null } }));
const EMPTIED = Object.fromEntries(COLUMNS.map((column) => [column, null]));

/**
 * Moves what the gateway once kept of other services' facts to their owners (decision 0028): each
 * organisation's wallet to p2p and its tax settings to books, then empties the gateway's columns. One
 * organisation at a time, its row locked while its facts are written, so a PATCH of it waits and its newer
 * values are never overwritten with the old ones (a PATCH empties the old copy of what it changes). An
 * owner that does not answer is asked again later; the writes set values, so a move cut short is repeated
 * whole. Answers how many organisations it moved, or null when an owner did not answer.
 */
export async function moveOwnerFacts(deps: Deps, logger: Pick<Logger, 'error'>, refused = new Set<string>()): Promise<number | null> {
  let moved = 0;
  for (;;) {
    const next = await deps.prisma.organization.findFirst({ where: { OR: HELD, id: { notIn: [...refused] } }, select: { id: true } });
    if (!next) return moved;
    try {
      await moveOne(deps, next.id);
      moved++;
    } catch (error) {
      if (AppError.is(error) && error.code === 'unavailable') return null;
      // A value its owner refuses now stays where it is, for a person to look at; the others move on.
      refused.add(next.id);
      logger.error({ err: error, organizationId: next.id }, 'an owner refused an organisation fact the gateway kept; left in place');
    }
  }
}

async function moveOne(deps: Deps, id: string): Promise<void> {
  await deps.prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${id}::uuid FOR UPDATE`;
      const row = await tx.organization.findUniqueOrThrow({ where: { id }, select: { handle: true, ...LEGACY } });
      const org = { id, handle: row.handle };
      if (row.receivingAddress !== null || row.walletXpub !== null || row.identityPublicKey !== null)
        await deps.services.p2p.setWallet({
          org,
          receivingAddress: row.receivingAddress ?? undefined,
          walletXpub: row.walletXpub ?? undefined,
          identityPublicKey: row.identityPublicKey ?? undefined,
        });
      if (row.jurisdiction !== null || row.pricesIncludeTax !== null)
        await deps.services.books.setTaxSettings({
          org,
          jurisdiction: row.jurisdiction ?? undefined,
          pricesIncludeTax: row.pricesIncludeTax ?? undefined,
        });
      await tx.organization.update({ where: { id }, data: EMPTIED });
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/** Runs moveOwnerFacts at start and again every `retryMs` while an owner does not answer; stops on close. */
export function startMovingOwnerFacts(deps: Deps, logger: Pick<Logger, 'error' | 'info'>, retryMs = 5_000): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const refused = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = moveOwnerFacts(deps, logger, refused).then(
      (moved) => {
        if (moved === null && !stopped) timer = setTimeout(run, retryMs);
        else if (moved) logger.info({ moved }, "moved organisations' wallet and tax facts to p2p and books");
      },
      (error: unknown) => {
        logger.error({ err: error }, "moving organisations' wallet and tax facts failed; trying again at the next start");
      },
    );
  };
  run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
