import { AccessServiceDefinition } from '@ctk/proto/ctk/gateway/v1/access';
import { IdentityServiceDefinition } from '@ctk/proto/ctk/gateway/v1/identity';
import { SignInServiceDefinition } from '@ctk/proto/ctk/gateway/v1/sign_in';
import { SERVICES, type ServiceClients, type ServiceName } from '@ctk/shared';
import { accessService } from '../access/access-service.js';
import type { GatewayDeps } from '../deps.js';
import { identityService } from '../identity/identity-service.js';
import { signInService } from '../sign-in/sign-in-service.js';

/**
 * The gateway's own services: declared in the contract as every service is, their routes on their RPCs
 * (decision 0032), and served in the gateway's process, never on the wire. Each checks its own rules.
 */
export const OWN_SERVICES = {
  identity: IdentityServiceDefinition,
  access: AccessServiceDefinition,
  signIn: SignInServiceDefinition,
} as const;
export type OwnServiceName = keyof typeof OWN_SERVICES;
export const OWN_SERVICE_NAMES = Object.keys(OWN_SERVICES) as OwnServiceName[];

export function ownServices(deps: GatewayDeps) {
  return { identity: identityService(deps), access: accessService(deps), signIn: signInService(deps) };
}

/** Every service a route may call: the others' by their gRPC clients, the gateway's own in its process. */
export type AnyServiceName = ServiceName | OwnServiceName;
export type OwnServices = ReturnType<typeof ownServices>;
export type AnyServiceClients = ServiceClients & OwnServices;

export const isOwnService = (name: AnyServiceName): name is OwnServiceName => name in OWN_SERVICES;

/** The full name of a service in the contract (e.g. `ctk.pos.v1.PosService`). */
export function serviceFullName(name: AnyServiceName): string {
  return isOwnService(name) ? OWN_SERVICES[name].fullName : SERVICES[name].definition.fullName;
}
