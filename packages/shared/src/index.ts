export * from './errors.js';
export * from './config.js';
export * from './logger.js';
export * from './run-service.js';
export * from './grpc/metadata.js';
export * from './grpc/server.js';
export * from './grpc/client.js';
export * from './db/open-database.js';
export { applyMigrations, diffSchemas } from './db/migrate.js';
