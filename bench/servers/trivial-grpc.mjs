// A trivial gRPC service on raw @grpc/grpc-js: answers PosService.ListItems with a constant.
import * as grpc from '@grpc/grpc-js';
import { ListItemsRequest, ListItemsResponse } from '@ctk/proto/ctk/pos/v1/pos';

// fromPartial: the item's other fields take their defaults, whatever the contract adds later.
const response = ListItemsResponse.encode(
  ListItemsResponse.fromPartial({
    items: [
      {
        id: '1',
        name: 'Flat white',
        description: '',
        priceCents: 450n,
        currency: 'USD',
        category: '',
        available: true,
        sku: '',
        createdAt: '2026-01-01T00:00:00.000Z',
        taxTreatment: 'standard',
        priceType: 'fixed',
      },
    ],
    nextCursor: '',
  }),
).finish();
const server = new grpc.Server();
server.addService(
  {
    listItems: {
      path: '/ctk.pos.v1.PosService/ListItems',
      requestStream: false,
      responseStream: false,
      requestDeserialize: (bytes) => ListItemsRequest.decode(bytes),
      responseSerialize: (bytes) => Buffer.from(bytes),
    },
  },
  { listItems: (_call, callback) => callback(null, response) },
);
server.bindAsync(`127.0.0.1:${process.env.GRPC_PORT}`, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) throw error;
  process.send?.('ready');
});
