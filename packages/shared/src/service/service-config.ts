import { configFields } from '../config.js';
import { tracingConfigFields } from '../tracing/tracing.js';
import { SERVICES, type ServiceName } from './registry.js';

/**
 * Every app (the gateway spreads it itself): Prometheus's metrics at GET /metrics on METRICS_PORT (0: any free
 * port), none when unset; and OpenTelemetry's tracing settings (OTEL_EXPORTER_OTLP_ENDPOINT, ...).
 */
export const telemetryConfigFields = {
  METRICS_PORT: configFields.metricsPort,
  ...tracingConfigFields,
};

/** What every service's configuration holds: where its gRPC server listens (its registry port by default), its log level, its metrics port and tracing. */
export function serviceConfigFields(name: ServiceName) {
  return { ...configFields.grpcListen(SERVICES[name].grpcPort), LOG_LEVEL: configFields.logLevel, ...telemetryConfigFields };
}

/** An app with a database: PostgreSQL at DATABASE_URL, else the embedded PGlite database under CTK_DATA_DIR. */
export const databaseConfigFields = {
  DATABASE_URL: configFields.databaseUrl,
  CTK_DATA_DIR: configFields.dataDir,
};

/** An app that publishes or consumes events: NATS JetStream at NATS_URL; absent (or empty) means none unless a transport is given. */
export const eventConfigFields = {
  NATS_URL: configFields.natsUrl,
};
