export * from './errors.js';
export * from './config.js';
export * from './logger.js';
export * from './run-service.js';
export * from './service/registry.js';
export * from './service/service-config.js';
export * from './service/service-clients.js';
export * from './service/define-service.js';
export * from './service/start-service.js';
export * from './service/service-thread.js';
export * from './service/start-tiering.js';
export * from './grpc/metadata.js';
export * from './grpc/server.js';
export * from './grpc/client.js';
export * from './grpc/org.js';
export * from './validate.js';
export * from './cursor.js';
export * from './tax.js';
export * from './db/open-database.js';
export {
  columnOf,
  connectSql,
  jsonArg,
  prismaQueries,
  writeTogether,
  type Sql,
  type SqlArg,
  type SqlQueries,
  type Statement,
  type TransactionOptions,
} from './db/sql.js';
export { batchedWrites } from './db/batched-writes.js';
export { groupCommit, type GroupCommitOptions } from './db/group-commit.js';
export { applyMigrations, diffSchemas } from './db/migrate.js';
export { ensureDatabase } from './db/ensure-database.js';
export { isDatabaseBusy, isStatementRefused, isUniqueViolation, isWriteConflict } from './db/prisma-errors.js';
export { retryLostRace } from './db/retry-lost-race.js';
export { oneAtATime, type OneAtATime } from './one-at-a-time.js';
export { keptKey, type KeyTable } from './db/kept-key.js';
export * from './events/index.js';
export * from './metrics/index.js';
export { activeTraceContext, endSpan, flushTraces, inBatchSpan, startSpan, startTracing, type TraceContext } from './tracing/tracing.js';
export { currentRequestId, requestContext } from './tracing/context.js';
export { isTimeZone } from './time-zone.js';
export { calendarDate } from './calendar-date.js';
export { freeText, lineOfText } from './text-fields.js';
export { comparablePath, coversMethod, coversPath, hasDotSegment, pathMatcher, pricingResource, specificity } from './paygate-path.js';
export { MAX_SATOSHIS, MAX_SATOSHIS_BIGINT } from './satoshis.js';
export { ORDER_LIMITS } from './order-limits.js';
export { qrFormat, qrImage } from './qr-image.js';
export {
  buyButtonElement,
  buyButtonSnippet,
  checkoutScriptTag,
  escapeHtml,
  type BuyButton,
  type CheckoutScript,
} from './buy-button-snippet.js';
export { classifyAddress, isAllowedAddress, isPublicAddress, type AddressClass, type AddressVerdict } from './net/address-policy.js';
export { AddressNotAllowed, checkedLookup, literalAddressProblem } from './net/checked-lookup.js';
