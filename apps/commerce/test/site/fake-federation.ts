import { FederationServiceDefinition, type Hours } from '@ctk/proto/ctk/federation/v1/federation';
import { createServer } from 'nice-grpc';

/** federation's GetHours alone, answering `hours` after `delayMs`: what a site's publish reads of federation. */
export async function startFakeFederation() {
  const state: { hours: Hours; delayMs: number; calls: number } = {
    hours: { regular: [{ day: 'mon', opens: '07:00', closes: '17:00' }], special: [], timeZone: 'UTC' },
    delayMs: 0,
    calls: 0,
  };
  const server = createServer();
  // Every other RPC is not this fake's.
  const unimplemented = Object.fromEntries(
    Object.keys(FederationServiceDefinition.methods).map((name) => [
      name,
      async () => {
        throw new Error(`the fake federation has no ${name}`);
      },
    ]),
  );
  server.add(FederationServiceDefinition, {
    ...unimplemented,
    getHours: async () => {
      state.calls += 1;
      await new Promise((done) => setTimeout(done, state.delayMs));
      return { hours: state.hours };
    },
  } as never);
  const port = await server.listen('127.0.0.1:0');
  return { url: `127.0.0.1:${port}`, state, close: () => server.shutdown() };
}
