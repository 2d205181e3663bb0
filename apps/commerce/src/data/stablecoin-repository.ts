import type { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, enqueuePaymentEvent, isUniqueViolation } from '@ctk/shared';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type StablecoinIntentRow = Prisma.StablecoinIntentGetPayload<{ include: { transfers: true } }>;
export type NewStablecoinIntent = Omit<Prisma.StablecoinIntentUncheckedCreateInput, 'transfers' | 'status' | 'succeededAt'>;
export type StablecoinRepository = ReturnType<typeof createStablecoinRepository>;
/** A verified transfer to an intent's address. */
export type VerifiedTransfer = { txid: string; vout: number; tokenAmount: bigint };
/** What a settle recorded: the transfer paid the intent, was already recorded, or arrived when it could pay nothing. */
export type SettleOutcome = 'accepted' | 'already_recorded' | 'refund_due';

const withTransfers = { transfers: { orderBy: { receivedAt: 'asc' } } } as const;

/** Stablecoin intents and the transfers offered to them, over Prisma (docs/decisions/0036-stablecoin-and-tokens.md). */
export function createStablecoinRepository(prisma: PrismaClient) {
  return {
    /**
     * The order's intent: the one opened already, or the one `make` describes, made under a lock on the order
     * (a transaction-scoped advisory lock), so that callers asking at once for one order make one intent and
     * hold one address between them. `make` runs at most once, inside the lock.
     */
    async openOnce(organizationId: string, orderNumber: string, make: () => Promise<NewStablecoinIntent>): Promise<StablecoinIntentRow> {
      return prisma.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`stablecoin:${organizationId}:${orderNumber}`}))`;
          const existing = await tx.stablecoinIntent.findUnique({
            where: { organizationId_orderNumber: { organizationId, orderNumber } },
            include: withTransfers,
          });
          return existing ?? tx.stablecoinIntent.create({ data: await make(), include: withTransfers });
        },
        { timeout: 30_000 },
      );
    },

    /** The intent of an order, if one was opened (at most one: the unique key). */
    byOrder(organizationId: string, orderNumber: string): Promise<StablecoinIntentRow | null> {
      return prisma.stablecoinIntent.findUnique({
        where: { organizationId_orderNumber: { organizationId, orderNumber } },
        include: withTransfers,
      });
    },

    byId(id: string): Promise<StablecoinIntentRow | null> {
      return prisma.stablecoinIntent.findUnique({ where: { id }, include: withTransfers });
    },

    /** The intent an output was recorded for, if any: an output pays once. */
    async transferOf(txid: string, vout: number): Promise<{ intentId: string } | null> {
      return prisma.stablecoinTransfer.findUnique({ where: { txid_vout: { txid, vout } }, select: { intentId: true } });
    },

    /**
     * Records a verified transfer, with the intent's row locked: the first to pay it is `accepted` (the intent
     * succeeds and its payment event goes to the outbox, in this one transaction); one arriving after is
     * `refund_due` with `reason` (the tokens are the merchant's to return). The same txid again, or two
     * concurrent settles with it, record it once: the primary key on txid decides.
     */
    async settle(
      intentId: string,
      transfer: VerifiedTransfer,
      paymentEvent: (intent: StablecoinIntentRow) => PaymentEvent,
      now: Date,
    ): Promise<{ outcome: SettleOutcome; intent: StablecoinIntentRow }> {
      try {
        const outcome = await prisma.$transaction(async (tx): Promise<SettleOutcome> => {
          await tx.$queryRaw`SELECT id FROM stablecoin_intents WHERE id = ${intentId} FOR UPDATE`;
          const known = await tx.stablecoinTransfer.findUnique({ where: { txid_vout: { txid: transfer.txid, vout: transfer.vout } } });
          if (known && known.intentId !== intentId) throw txidUsed(transfer.txid);
          if (known) return 'already_recorded';
          const intent = await tx.stablecoinIntent.findUniqueOrThrow({ where: { id: intentId }, include: withTransfers });
          const paidBy = intent.transfers.find((t) => t.outcome === 'accepted');
          if (paidBy || intent.status !== 'requires_payment') {
            const reason = paidBy ? `the intent was paid by ${paidBy.txid} already` : `the intent is ${intent.status}`;
            await tx.stablecoinTransfer.create({ data: { ...transfer, intentId, outcome: 'refund_due', reason, receivedAt: now } });
            return 'refund_due';
          }
          await tx.stablecoinTransfer.create({ data: { ...transfer, intentId, outcome: 'accepted', receivedAt: now } });
          const succeeded = await tx.stablecoinIntent.update({
            where: { id: intentId },
            data: { status: 'succeeded', succeededAt: now },
            include: withTransfers,
          });
          await enqueuePaymentEvent(tx, paymentEvent(succeeded));
          return 'accepted';
        });
        return { outcome, intent: (await this.byId(intentId))! };
      } catch (error) {
        // Two settles with one transfer at once: the loser's insert meets the winner's row.
        if (!isUniqueViolation(error)) throw error;
        const known = await this.transferOf(transfer.txid, transfer.vout);
        if (known?.intentId !== intentId) throw txidUsed(transfer.txid);
        return { outcome: 'already_recorded', intent: (await this.byId(intentId))! };
      }
    },

    /** An intent whose order was cancelled: canceled, unless a transfer paid it first. */
    async cancel(id: string): Promise<StablecoinIntentRow> {
      await prisma.stablecoinIntent.updateMany({ where: { id, status: 'requires_payment' }, data: { status: 'canceled' } });
      return (await this.byId(id))!;
    },

    /** A transfer that could not pay the intent (its order was paid or closed meanwhile), kept as refund_due. */
    async refundDue(intentId: string, transfer: VerifiedTransfer, reason: string, now: Date): Promise<StablecoinIntentRow> {
      await prisma.stablecoinTransfer
        .create({ data: { ...transfer, intentId, outcome: 'refund_due', reason, receivedAt: now } })
        .catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
        });
      return (await this.byId(intentId))!;
    },
  };
}

function txidUsed(txid: string): AppError {
  return new AppError('txid_already_used', `Transaction ${txid} already paid another intent; an output pays once.`, { txid });
}
