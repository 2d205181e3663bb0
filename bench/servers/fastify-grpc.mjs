// (2) A bare fastify route making one raw @grpc/grpc-js unary call: the floor any gateway forwarding over gRPC pays.
import * as grpc from '@grpc/grpc-js';
import Fastify from 'fastify';
import { ListItemsRequest, ListItemsResponse } from '@ctk/proto/ctk/pos/v1/pos';

const client = new grpc.Client(`127.0.0.1:${process.env.GRPC_PORT}`, grpc.credentials.createInsecure());
const serialize = (value) => Buffer.from(ListItemsRequest.encode(value).finish());
const deserialize = (bytes) => ListItemsResponse.decode(bytes);
const request = ListItemsRequest.fromPartial({ limit: 50 });

const app = Fastify();
app.get(
  '/bench',
  () =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        '/ctk.pos.v1.PosService/ListItems',
        serialize,
        deserialize,
        request,
        new grpc.Metadata(),
        {},
        (error, response) =>
          error
            ? reject(error)
            : resolve({ items: response.items.map((i) => ({ id: i.id, name: i.name, price_cents: Number(i.priceCents) })) }),
      );
    }),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
