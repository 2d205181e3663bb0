import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OpenTelemetry collector receives it over OTLP/HTTP JSON, with the service that sent it. */
export type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The spans it is linked to (a batch and the items it was written for). */
  links: Array<{ traceId: string; spanId: string }>;
  /** When it started and ended, in milliseconds since the epoch (to the microsecond). */
  start: number;
  end: number;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
        links?: Array<{ traceId: string; spanId: string }>;
      }>;
    }>;
  }>;
};

const valueOf = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''));
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((entry) => [entry.key, valueOf(entry.value)]));
/** Milliseconds since the epoch of an OTLP time (nanoseconds, as a string). */
const msOf = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;

/**
 * What an OpenTelemetry collector's OTLP/HTTP receiver does with traces, for tests and the benches
 * (bench/traces.mjs): takes POST /v1/traces (JSON, as @opentelemetry/exporter-trace-otlp-http sends it) on `port`
 * (a free one by default) and keeps every span. Point OTEL_EXPORTER_OTLP_ENDPOINT at `url`.
 */
export async function startOtlpReceiver(port = 0): Promise<{ url: string; spans(): ReceivedSpan[]; close(): Promise<void> }> {
  const received: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            received.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              statusCode: span.status?.code ?? 0,
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              start: msOf(span.startTimeUnixNano),
              end: msOf(span.endTimeUnixNano),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans: () => [...received],
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
