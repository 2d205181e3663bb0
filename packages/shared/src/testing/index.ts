export * from './test-database.js';
export * from './grpc-health.js';
export * from './eventually.js';
export * from './nats.js';
export * from './payment-event-feed.js';
export * from './accounting-tools.js';
export * from './failure.js';
