export * from './subjects.js';
export * from './transport.js';
export * from './event-source.js';
export * from './in-process-transport.js';
export * from './outbox.js';
export * from './outbox-relay.js';
export * from './order-event-lines.js';
export * from './announcements.js';
