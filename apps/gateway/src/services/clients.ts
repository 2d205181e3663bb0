import { createGrpcClient, type GrpcClient } from '@ctk/shared';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import type { Config } from '../config.js';

export type ServiceClients = {
  books: GrpcClient<typeof BooksServiceDefinition>;
  pos: GrpcClient<typeof PosServiceDefinition>;
  commerce: GrpcClient<typeof CommerceServiceDefinition>;
  p2p: GrpcClient<typeof P2pServiceDefinition>;
  federation: GrpcClient<typeof FederationServiceDefinition>;
  contracts: GrpcClient<typeof ContractsServiceDefinition>;
};

/** One gRPC client per service, closed with the app. */
export function createServiceClients(config: Config): ServiceClients {
  return {
    books: createGrpcClient(BooksServiceDefinition, config.BOOKS_GRPC_URL),
    pos: createGrpcClient(PosServiceDefinition, config.POS_GRPC_URL),
    commerce: createGrpcClient(CommerceServiceDefinition, config.COMMERCE_GRPC_URL),
    p2p: createGrpcClient(P2pServiceDefinition, config.P2P_GRPC_URL),
    federation: createGrpcClient(FederationServiceDefinition, config.FEDERATION_GRPC_URL),
    contracts: createGrpcClient(ContractsServiceDefinition, config.CONTRACTS_GRPC_URL),
  };
}

export function closeServiceClients(clients: ServiceClients): void {
  for (const client of Object.values(clients)) client.close();
}
