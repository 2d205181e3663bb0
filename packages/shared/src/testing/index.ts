export * from './test-database.js';
export * from './grpc-health.js';
