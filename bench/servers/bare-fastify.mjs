// (1) A bare fastify JSON route: the ceiling of HTTP on this machine.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bench', async () => ({ ok: true, items: [{ id: 1, name: 'Flat white', price_cents: 450 }] }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
