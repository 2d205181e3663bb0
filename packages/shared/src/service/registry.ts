import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { BOOKS_CONSUMER, COMMERCE_CONSUMER } from '../events/subjects.js';

/**
 * Every service behind the gateway: its name (its folder under apps/, its database under the data
 * directory, its Kubernetes base), the gRPC port it listens on by default, and its proto service. The
 * gateway's clients and configuration, the embedded start (scripts/start-all.mjs), the end-to-end
 * harness and the deploy manifests test all read this table: adding a service is one row here
 * (docs/adding-a-service.md). `calls` names the services one calls (each is started before it, and its
 * configuration holds their addresses: serviceAddressFields); `consumer`, the durable consumer it reads the
 * stream with, if it does.
 */
export const SERVICES = {
  books: { grpcPort: 50061, definition: BooksServiceDefinition, calls: [], consumer: BOOKS_CONSUMER },
  // Orders take the jurisdiction's rate from books and their payment outputs and settlement from p2p.
  pos: { grpcPort: 50062, definition: PosServiceDefinition, calls: ['books', 'p2p'] },
  // A checkout is a pos order, and the catalog is pos's items and menu; a published site shows federation's hours.
  // A stablecoin intent's address is held by p2p (decision 0036).
  commerce: {
    grpcPort: 50063,
    definition: CommerceServiceDefinition,
    calls: ['pos', 'federation', 'p2p'],
    consumer: COMMERCE_CONSUMER,
  },
  p2p: { grpcPort: 50064, definition: P2pServiceDefinition, calls: [] },
  // A feed lists pos's items at its rates and names the merchant's identity key, which p2p keeps.
  federation: { grpcPort: 50065, definition: FederationServiceDefinition, calls: ['pos', 'p2p'] },
  // A token's mint goes to an address of the merchant's wallet that p2p holds, its fee from coins p2p lists;
  // credits are sold in pos orders and redeemed against them (decision 0036).
  contracts: { grpcPort: 50066, definition: ContractsServiceDefinition, calls: ['p2p', 'pos'] },
} as const satisfies Record<string, { grpcPort: number; definition: unknown; calls: readonly string[]; consumer?: string }>;

export type ServiceName = keyof typeof SERVICES;
/** The seven apps: the gateway and the services. */
export type AppName = 'gateway' | ServiceName;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/** The services a service calls, by name. */
export function callsOf(name: ServiceName): readonly ServiceName[] {
  return SERVICES[name].calls as readonly ServiceName[];
}

/** The durable consumers the services named read the stream with (the embedded default's transport carries them). */
export function consumersOf(names: readonly ServiceName[] = SERVICE_NAMES): string[] {
  return names.flatMap((name) => {
    const row = SERVICES[name];
    return 'consumer' in row ? [row.consumer] : [];
  });
}

/** Every service, each after the services it calls: the order to start them in. */
export function startOrder(): ServiceName[] {
  const ordered: ServiceName[] = [];
  const visit = (name: ServiceName) => {
    if (ordered.includes(name)) return;
    for (const callee of callsOf(name)) visit(callee);
    ordered.push(name);
  };
  for (const name of SERVICE_NAMES) visit(name);
  return ordered;
}

export type GrpcUrlVariable<N extends ServiceName = ServiceName> = `${Uppercase<N>}_GRPC_URL`;

/** The gateway's variable holding a service's address, e.g. BOOKS_GRPC_URL. */
export function grpcUrlVariable<N extends ServiceName>(name: N): GrpcUrlVariable<N> {
  return `${name.toUpperCase()}_GRPC_URL` as GrpcUrlVariable<N>;
}
