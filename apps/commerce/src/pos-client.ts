import type { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import type { GrpcClient } from '@ctk/shared';

/** pos over gRPC: the catalog's items and menu, and the orders checkouts open. */
export type PosClient = GrpcClient<typeof PosServiceDefinition>;
