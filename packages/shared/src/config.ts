import { z } from 'zod';

/**
 * Reads and validates an app's configuration once, at start. Fails fast with every problem named,
 * so a missing or malformed variable is found before the app serves anything.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}

/** An empty variable (`PORT=` in an env file) counts as unset, so the default applies. */
export const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);

/** A yes/no setting: true or 1, false, 0 or empty (the default: off). */
export const flagField = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const portField = (fallback: number) => unsetIfEmpty(z.coerce.number().int().min(0).max(65535).default(fallback));

/** Common pieces of app config schemas. */
export const configFields = {
  port: portField,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A PostgreSQL URL; absent means the embedded PGlite database. */
  databaseUrl: unsetIfEmpty(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** NATS with JetStream; absent means no broker (the embedded default). */
  natsUrl: unsetIfEmpty(z.url({ protocol: /^nats$/ }).optional()),
  dataDir: z.string().min(1).default('.data'),
  /** Where Prometheus reads the app's metrics (GET /metrics), a port of its own; 0 picks any free port; absent means none. */
  metricsPort: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).optional()),
  /** Where a service's gRPC server listens; port 0 picks any free port. */
  grpcListen: (fallbackPort: number) => ({
    GRPC_HOST: z.string().min(1).default('127.0.0.1'),
    GRPC_PORT: portField(fallbackPort),
  }),
  grpcAddress: (fallbackPort: number) =>
    z
      .string()
      .regex(/^[\w.-]+:\d+$/, 'expected host:port')
      .default(`127.0.0.1:${fallbackPort}`),
};
