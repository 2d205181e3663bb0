import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, countPayment } from '@ctk/shared';
import type { WatchedOrder } from '../data/order-repository.js';
import { markOrderMined } from '../domain/mark-order-mined.js';
import { recordedVia, settleOrderPayment } from '../domain/settle-order-payment.js';
import { expireCardOrders } from '../prepaid/expire-card-orders.js';
import type { OrderContext } from './order-context.js';

/** p2p's FindPayments takes at most this many addresses a call. */
const ADDRESSES_PER_CALL = 100;
/**
 * The longest a round waits after a FindPayments call. A call of 100 addresses took 20 to 35 ms in the benches,
 * with the local chain's answers in the same process; one that takes longer spent the rest waiting on the chain's
 * API (a request to WhatsOnChain takes 100 ms or more), and a wait as long would only make the round slower to see
 * a payment.
 */
const YIELD_MS = 50;
/** Watched orders are read this many at a time; a round reads them all. */
const ORDERS_PER_PAGE = 1_000;
/** Refusals that will not change on a retry: the txid is not tried for that order again by this process. */
const FINAL_REFUSALS = new Set(['txid_already_used', 'payment_wrong_output', 'payment_underpaid', 'chain_rejected', 'failed_precondition']);
/**
 * Orders settled otherwise are watched for a stray payment (kept for a refund) every round for a minute after,
 * then once a minute: they are most of the watched orders on a busy platform, and nothing waits on them.
 */
const STRAY_WATCH_MS = 60_000;
/**
 * Between blocks, the payments of an order paid this recently are asked once (their state may move from
 * pending to seen, or to rejected); the rest wait for the next block. A minute covers an order whose
 * payment was stamped before its transaction committed, and clocks a little apart.
 */
const RECENTLY_PAID_MS = 60_000;

/**
 * Orders taking payment are asked about every round while they are this young: a payment most often comes within
 * minutes of the order being shown. Older ones, and expired ones within their late window, are asked in one round
 * of OLD_ORDER_ROUNDS (30 s at the default 5 s), each address in the round its hash names, so that a round asks a
 * sixth of them: on a busy platform they are most of the watched addresses, and every address asked is a share of
 * a request to the chain's API (WhatsOnChain's free tier answers 3 a second).
 */
const YOUNG_ORDER_MS = 120_000;
const OLD_ORDER_ROUNDS = 6;

/** What a watcher carries from one round to the next. */
export type WatcherState = {
  /** Rounds done: the first asks about every watched address. */
  rounds: number;
  /** `${orderId}:${txid}` refused for good (FINAL_REFUSALS). */
  refused: Set<string>;
  /** When orders settled otherwise were last watched for a stray payment. */
  strayWatchedAt?: Date;
  /** The chain's best block when every paid order's payments were last asked. */
  sweptTip?: string;
  /** The paid orders asked since then (those still recently paid). */
  askedBetweenBlocks: Set<string>;
};

export function watcherState(): WatcherState {
  return { rounds: 0, refused: new Set(), askedBetweenBlocks: new Set() };
}

/**
 * Learning of payment by watching addresses (decision 0015): every `intervalMs`, open orders past their expiry
 * become expired (with their prepaid card uses restored, decision 0017); the addresses of orders still taking
 * payment (open, or expired within the late window) are asked of p2p's FindPayments, every round for two minutes
 * after the order is made and one round in six after that, and each new txid is settled with SettlePayment (any
 * amount to the order's output counts); paid orders' payments are asked of
 * GetTransactionStatus until mined (once a block, askPaidOrdersMined). Orders settled otherwise are watched for a
 * stray payment every round for a minute, then once a minute. With an xpub no two open orders share an address
 * (p2p holds each order's child for it alone until its late window ends, or until the order is settled otherwise
 * and releases it, decision 0022): a child two watched orders have had is watched for the newer. An address two
 * watched orders share on a single receiving address is not watched: a payment to it could be either's, so those
 * orders are paid by BIP270 or confirmed by staff.
 */
export function startOrderWatcher(context: OrderContext, intervalMs: number): { stop(): Promise<void> } {
  const state = watcherState();
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = watchOnce(context, state)
        .catch((error: unknown) => context.logger.warn({ err: error }, 'the order watcher failed a round; it tries again'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

export async function watchOnce(context: OrderContext, state: WatcherState = watcherState(), pageSize = ORDERS_PER_PAGE): Promise<void> {
  const now = context.now();
  for (const id of await context.orders.expire(now)) context.notifier.changed(id);
  await expireCardOrders(context);
  await settleWatchedPayments(context, state, now, pageSize);
  await askPaidOrdersMined(context, state, now, pageSize);
}

/** A round's look at the watched addresses: each new txid found at one is settled to its order. */
async function settleWatchedPayments(context: OrderContext, state: WatcherState, now: Date, pageSize: number): Promise<void> {
  // Orders settled otherwise in the last minute every round (a payment racing a cancel is seen at once), the
  // rest once a minute.
  const everyStray = !state.strayWatchedAt || now.getTime() - state.strayWatchedAt.getTime() >= STRAY_WATCH_MS;
  if (everyStray) state.strayWatchedAt = now;
  const stray = everyStray ? 'all' : new Date(now.getTime() - STRAY_WATCH_MS);
  // Every watched order, a page at a time: the newest orders are as watched as the oldest however many there are
  // (with one page of the oldest alone, a busy platform's new orders went unseen until older ones left the window).
  const lateSince = new Date(now.getTime() - context.latePaymentSeconds * 1000);
  let page = await context.orders.watched(lateSince, pageSize, { stray });
  const watched = [...page];
  while (page.length === pageSize) {
    page = await context.orders.watched(lateSince, pageSize, { stray, after: page.at(-1) });
    watched.push(...page);
  }
  const byAddress = new Map<string, WatchedOrder[]>();
  for (const order of watched) byAddress.set(order.address, [...(byAddress.get(order.address) ?? []), order]);
  // A child of the xpub is held for one order at a time: several orders on one were each given it after the
  // one before was settled otherwise and released it (p2p hands out the child free longest first), so it is
  // the newest order's alone. Orders sharing the single receiving address stay unwatched.
  for (const [address, orders] of byAddress) {
    if (orders.length > 1 && orders.every((order) => order.derivationIndex !== null))
      byAddress.set(address, [orders.reduce((newest, order) => (order.createdAt > newest.createdAt ? order : newest))]);
  }
  const round = state.rounds++;
  const youngSince = now.getTime() - YOUNG_ORDER_MS;
  const due = (address: string, order: WatchedOrder) =>
    round === 0 ||
    !['open', 'expired'].includes(order.status) ||
    order.createdAt.getTime() >= youngSince ||
    oldOrderRound(address) === round % OLD_ORDER_ROUNDS;
  const single = [...byAddress.entries()]
    .filter(([address, orders]) => orders.length === 1 && due(address, orders[0]!))
    .map(([address]) => address);
  for (let start = 0; start < single.length; start += ADDRESSES_PER_CALL) {
    const asked = performance.now();
    const { payments } = await context.p2p.findPayments({ addresses: single.slice(start, start + ADDRESSES_PER_CALL) });
    // A round is background work: after each call it waits as long as the call took, up to YIELD_MS, leaving the
    // process to the requests it serves at least half the time while the round's work is CPU (docs/performance.md,
    // session 32). A call that took longer was waiting on the chain's API, with the process free meanwhile.
    if (start + ADDRESSES_PER_CALL < single.length) await sleep(Math.min(performance.now() - asked, YIELD_MS));
    for (const found of payments) {
      const watched = byAddress.get(found.address)?.[0];
      const key = `${watched?.id}:${found.txid}`;
      if (!watched || state.refused.has(key) || watched.txids.includes(found.txid)) continue;
      try {
        const order = await context.orders.byId(watched.id);
        if (!order) continue;
        // Counted (ctk_payments_total, path chain_watcher) each time it is tried; a payment BIP270 recorded first is a duplicate.
        await countPayment(
          'chain_watcher',
          () => settleOrderPayment(context, order, { txid: found.txid }, [{ script: order.script, minSatoshis: 1n }], 'address'),
          (settled) => (recordedVia(settled, found.txid) === 'address' ? 'accepted' : 'duplicate'),
        );
      } catch (error) {
        if (error instanceof AppError && FINAL_REFUSALS.has(error.code)) state.refused.add(key);
        context.logger.warn(
          { err: error, order: watched.orderNumber, txid: found.txid },
          'a payment seen at an order address was not settled',
        );
      }
    }
  }
}

/** The round (of OLD_ORDER_ROUNDS) in which the address of an order no longer young is asked about. */
export function oldOrderRound(address: string): number {
  let hash = 0;
  for (let index = 0; index < address.length; index++) hash = (hash * 31 + address.charCodeAt(index)) >>> 0;
  return hash % OLD_ORDER_ROUNDS;
}

/**
 * Paid orders' payments asked of the chain: every paid order's once a block (when the chain's best block is
 * not the one of the last such sweep), and between blocks once for an order newly paid (in the last
 * RECENTLY_PAID_MS, not asked yet). A payment mines only with a block, so asking every order every round
 * asked the chain thousands of times a minute for nothing on a busy platform.
 */
async function askPaidOrdersMined(context: OrderContext, state: WatcherState, now: Date, pageSize: number): Promise<void> {
  const tip = (await context.p2p.getChainTip({})).bestBlockHash;
  const sweep = tip !== state.sweptTip;
  const paidSince = sweep ? undefined : new Date(now.getTime() - RECENTLY_PAID_MS);
  const asked = new Set<string>();
  for (let page = await context.orders.paidUnconfirmed(pageSize, { paidSince }); ;) {
    for (const order of page) {
      asked.add(order.id);
      if (!sweep && state.askedBetweenBlocks.has(order.id)) continue;
      await markOrderMined(context, order).catch((error: unknown) =>
        context.logger.warn({ err: error, order: order.orderNumber }, 'could not read the state of a paid order'),
      );
    }
    // Every paid order has its paidAt; a page ending without one could not be paged past.
    if (page.length < pageSize || !page.at(-1)!.paidAt) break;
    page = await context.orders.paidUnconfirmed(pageSize, { paidSince, after: page.at(-1) });
  }
  state.sweptTip = tip;
  state.askedBetweenBlocks = asked;
}
