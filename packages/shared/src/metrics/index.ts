export * from './metrics.js';
export * from './metrics-listener.js';
