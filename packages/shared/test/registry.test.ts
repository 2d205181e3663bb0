import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { callsOf, consumersOf, SERVICE_NAMES, startOrder } from '../src/service/registry.js';
import { serviceAddressFields } from '../src/service/service-clients.js';
import { z } from 'zod';

describe('the registry: which services call which', () => {
  it('starts every service once, each after the services it calls', () => {
    const order = startOrder();
    expect([...order].sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) for (const callee of callsOf(name)) expect(order.indexOf(callee)).toBeLessThan(order.indexOf(name));
    expect(callsOf('pos')).toEqual(['books', 'p2p']);
  });

  it('names the durable consumers the services read the stream with', () => {
    expect(consumersOf()).toEqual(['books', 'commerce']);
    expect(consumersOf(['p2p', 'pos', 'books'])).toEqual(['books']);
  });

  it("gives a service's configuration the addresses of the services it names, defaulting to their registry ports", () => {
    const schema = z.object(serviceAddressFields(['books', 'p2p']));
    expect(loadConfig(schema, {})).toEqual({ BOOKS_GRPC_URL: '127.0.0.1:50061', P2P_GRPC_URL: '127.0.0.1:50064' });
    expect(loadConfig(schema, { P2P_GRPC_URL: 'p2p:50051' }).P2P_GRPC_URL).toBe('p2p:50051');
    expect(Object.keys(serviceAddressFields())).toHaveLength(SERVICE_NAMES.length);
  });
});
