import { createChannel, createClient } from 'nice-grpc';
import { HealthDefinition } from 'nice-grpc-server-health';

const STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

/** What grpc.health.v1 Check answers for a service ('' is the server as a whole). */
export async function grpcHealthStatus(address: string, service = ''): Promise<(typeof STATUS_NAMES)[number]> {
  const channel = createChannel(address);
  try {
    const { status } = await createClient(HealthDefinition, channel).check({ service });
    return STATUS_NAMES[Number(status)] ?? 'UNKNOWN';
  } finally {
    channel.close();
  }
}
