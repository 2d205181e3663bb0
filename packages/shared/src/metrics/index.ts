export * from './metrics.js';
export * from './metrics-listener.js';
export * from './thread-metrics.js';
