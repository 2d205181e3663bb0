import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { createLogger, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { booksService } from './grpc/books-service.js';

export { configSchema, type Config } from './config.js';

/** Serves BooksService and grpc.health.v1. */
export async function startBooks(config: Config, logger: Logger = createLogger('books', config.LOG_LEVEL)) {
  const server = await startGrpcServer({
    name: 'books',
    address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
    logger,
    services: [[BooksServiceDefinition, booksService]],
  });
  return { port: server.port, close: (): Promise<void> => server.shutdown() };
}
