import { z } from 'zod';
import { configFields } from '../config.js';
import { createGrpcClient, type GrpcClient } from '../grpc/client.js';
import { grpcUrlVariable, SERVICE_NAMES, SERVICES, type GrpcUrlVariable, type ServiceName } from './registry.js';

export type ServiceClients = { [N in ServiceName]: GrpcClient<(typeof SERVICES)[N]['definition']> };
export type ServiceAddresses = { [N in ServiceName as GrpcUrlVariable<N>]: string };

type AddressFields<N extends ServiceName> = { [K in N as GrpcUrlVariable<K>]: ReturnType<typeof configFields.grpcAddress> };

/**
 * The config fields naming where services answer (BOOKS_GRPC_URL, ...), each defaulting to its registry
 * port: every service's (the gateway), or those of the services named (a service's `calls`).
 */
export function serviceAddressFields(): AddressFields<ServiceName>;
export function serviceAddressFields<N extends ServiceName>(names: readonly N[]): AddressFields<N>;
export function serviceAddressFields(names: readonly ServiceName[] = SERVICE_NAMES): AddressFields<ServiceName> {
  return Object.fromEntries(names.map((name) => [grpcUrlVariable(name), configFields.grpcAddress(SERVICES[name].grpcPort)])) as never;
}

/** The schema of those fields alone, for a tool that only needs the addresses. */
export const serviceAddressesSchema = z.object(serviceAddressFields());

/** One gRPC client per service, at the addresses configured; close them with closeServiceClients. */
export function createServiceClients(addresses: ServiceAddresses): ServiceClients {
  return Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, createGrpcClient(SERVICES[name].definition, addresses[grpcUrlVariable(name)])]),
  ) as unknown as ServiceClients;
}

export function closeServiceClients(clients: ServiceClients): void {
  for (const client of Object.values(clients)) client.close();
}
