/** One event on the wire: `id` is the event's id, the broker's deduplication key. */
export type EventMessage = {
  id: string;
  subject: string;
  data: Uint8Array;
  /** The trace context and request id of the work that published it (traceparent, tracestate, x-request-id). */
  headers?: Record<string, string>;
  /** 1 on the first delivery, 2 on the first redelivery, ... (set on consumed messages). */
  deliveryCount?: number;
};

/**
 * Handles one message: returning acknowledges it, with what became of it if the handler says (its outcome in
 * ctk_events_consumed_total: books' posted, duplicate or parked); throwing has it delivered again.
 */
export type EventHandler = (message: EventMessage) => Promise<string | void>;

export type Subscription = {
  /** Stops receiving, after the message being handled (if any) is finished. */
  stop(): Promise<void>;
  /** Messages waiting for the durable consumer, delivered or not, unacknowledged; absent where the transport cannot tell (in process). */
  pending?(): Promise<number>;
};

/**
 * How events move between services: NATS JetStream in production, in-process delivery
 * in the embedded default. Same semantics in both.
 */
export interface EventTransport {
  /**
   * Resolves only once the broker acknowledged the message (in-process: it is queued in memory).
   * Publishing an id again is a no-op (deduplication), so a relay may retry freely.
   */
  publish(message: EventMessage): Promise<void>;
  /**
   * Delivers every message to the durable consumer `durable`, at least once: a handler that throws gets
   * the message again later. Each durable name receives every message once acknowledged; the same name
   * resumes where it stopped.
   */
  consume(durable: string, handler: EventHandler): Promise<Subscription>;
  /** Stops every consumer and releases the connection. */
  close(): Promise<void>;
  /** Whether the broker is reachable now (the ctk_broker_connected metric); a transport without a broker leaves it out. */
  connected?(): boolean;
  /**
   * Says something to every process listening on `subject` now (decision 0053): kept nowhere, never
   * redelivered. Resolves once the broker has it (in process: once every listener heard it). A transport that
   * cannot leaves it out, and a cache on it keeps nothing.
   */
  announce?(subject: string, data: Uint8Array): Promise<void>;
  /** Hears what is announced on `subject` from now on, until stopped. */
  listen?(subject: string, listener: AnnouncementListener): Listening;
}

/** What a listener is told: each announcement, and that some may have gone by unheard (the connection lost). */
export type AnnouncementListener = { heard(data: Uint8Array): void; missed(): void };

export type Listening = {
  /**
   * Whether every announcement made from now on will be heard: subscribed, and the connection up. What a
   * process keeps on the strength of announcements is kept and used only while this is true.
   */
  listening(): boolean;
  stop(): void;
};

/** The part of the project's logger (pino) the event code uses; tests pass a spy. */
export type EventLogger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};
