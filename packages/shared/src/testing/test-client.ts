import { createGrpcClient } from '../grpc/client.js';

/**
 * The deadline of a test's own calls to the service under test. Tests assert outcomes (one winner of a race,
 * a balance never below zero), not latency: a hundred calls contending for one row on a loaded 2-core machine
 * may take longer than a production caller's 5 s, and a test that fails by timing is a defect of the test.
 */
export const TEST_CALL_TIMEOUT_MS = 60_000;

/** A gRPC client for a test, with the test deadline. */
export const createTestClient: typeof createGrpcClient = (definition, address, options = {}) =>
  createGrpcClient(definition, address, { timeoutMs: TEST_CALL_TIMEOUT_MS, ...options });
