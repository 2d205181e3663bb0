// The books service for the latency bench: consumes the bench's own JetStream stream (BENCH_STREAM,
// subjects BENCH_SUBJECTS) instead of CTK_PAYMENTS, so other runs' events on this machine stay out.
import { configSchema, service } from '@ctk/books';
import { createLogger, loadConfig, startService } from '@ctk/shared';
import { connectNatsTransport } from '@ctk/shared/nats';

const config = loadConfig(configSchema, process.env);
const logger = createLogger('books', config.LOG_LEVEL);
const transport = await connectNatsTransport({
  url: process.env.BENCH_NATS_URL,
  logger,
  name: 'books-bench',
  stream: { name: process.env.BENCH_STREAM, subjects: [process.env.BENCH_SUBJECTS] },
});
const books = await startService(service, config, { logger, transport });
process.send?.({ port: books.port });
process.on('SIGTERM', async () => {
  await books.close();
  await transport.close();
  process.exit(0);
});
