import { EventEmitter } from 'node:events';

/**
 * Tells this process's watchers of an order that it changed (WatchOrder). Another replica's change is
 * not seen here: WatchOrder also re-reads the order periodically.
 */
export type OrderNotifier = {
  changed(orderId: string): void;
  /** Calls `listener` at each change of the order until the returned function is called. */
  listen(orderId: string, listener: () => void): () => void;
};

export function createOrderNotifier(): OrderNotifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    changed: (orderId) => emitter.emit(orderId),
    listen(orderId, listener) {
      emitter.on(orderId, listener);
      return () => emitter.off(orderId, listener);
    },
  };
}
