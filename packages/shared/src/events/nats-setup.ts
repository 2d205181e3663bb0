import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

export type StreamSpec = { name: string; subjects: string[]; duplicateWindowMs: number };

function isNotFound(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * Creates the stream if missing, or brings its subjects and duplicate window to the spec. Storage is
 * file (a stream's storage cannot change later); retention keeps everything (limits, none set).
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const duplicate_window = nanos(spec.duplicateWindowMs);
  const existing = await jsm.streams.info(spec.name).catch((error: unknown) => {
    if (isNotFound(error, JetStreamApiCodes.StreamNotFound)) return undefined;
    throw error;
  });
  if (!existing) {
    await jsm.streams.add({ name: spec.name, subjects: spec.subjects, storage: StorageType.File, duplicate_window });
    return;
  }
  const sameSubjects = [...existing.config.subjects].sort().join() === [...spec.subjects].sort().join();
  if (!sameSubjects || existing.config.duplicate_window !== duplicate_window) {
    await jsm.streams.update(spec.name, { subjects: spec.subjects, duplicate_window });
  }
}

export type ConsumerSpec = { stream: string; durable: string; ackWaitMs: number };

/** A durable pull consumer with explicit acks that never gives up redelivering (max_deliver -1). */
export async function ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<void> {
  const ack_wait = nanos(spec.ackWaitMs);
  const existing = await jsm.consumers.info(spec.stream, spec.durable).catch((error: unknown) => {
    if (isNotFound(error, JetStreamApiCodes.ConsumerNotFound)) return undefined;
    throw error;
  });
  if (!existing) {
    await jsm.consumers.add(spec.stream, {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait,
      max_deliver: -1,
    });
  } else if (existing.config.ack_wait !== ack_wait || existing.config.max_deliver !== -1) {
    await jsm.consumers.update(spec.stream, spec.durable, { ack_wait, max_deliver: -1 });
  }
}
