import { SpanKind } from '@opentelemetry/api';
import { countConsumedEvent, watchConsumerLag } from '../metrics/metrics.js';
import { contextFrom } from '../tracing/context.js';
import { inSpan } from '../tracing/tracing.js';
import type { EventTransport } from './transport.js';

/**
 * The transport as an app's consumer sees it: each message its handler takes is counted in
 * ctk_events_consumed_total by what the handler said became of it (`handled` when it said nothing, `failed`
 * when it threw), and the durable consumer's lag is shown in ctk_consumer_lag while it is subscribed, where
 * the transport can tell it (NATS). Each message is handled in a span (CONSUMER) of the trace that published
 * it, with its request id in every line the handler logs. The bootstrap hands this to the app's `consume`.
 */
export function measuredConsumers(transport: EventTransport): EventTransport {
  return {
    publish: (message) => transport.publish(message),
    close: () => transport.close(),
    ...(transport.connected ? { connected: () => transport.connected!() } : {}),
    async consume(durable, handler) {
      const subscription = await transport.consume(durable, (message) =>
        inSpan(
          `process ${message.subject}`,
          SpanKind.CONSUMER,
          {
            'messaging.system': 'nats',
            'messaging.operation.type': 'process',
            'messaging.destination.name': message.subject,
            'messaging.consumer.group.name': durable,
            'messaging.message.id': message.id,
            'ctk.delivery_count': message.deliveryCount ?? 1,
          },
          contextFrom(message.headers),
          async (span) => {
            let outcome: string | void;
            try {
              outcome = await handler(message);
            } catch (error) {
              countConsumedEvent(durable, 'failed');
              throw error;
            }
            countConsumedEvent(durable, outcome || 'handled');
            span.setAttribute('ctk.outcome', outcome || 'handled');
            return outcome;
          },
        ),
      );
      const pending = subscription.pending?.bind(subscription);
      const unwatch = pending ? watchConsumerLag(durable, pending) : () => undefined;
      return {
        ...subscription,
        async stop() {
          unwatch();
          await subscription.stop();
        },
      };
    },
  };
}
