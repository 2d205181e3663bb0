/** Metadata keys sent with every call, so services log with the same request id (and HTTP and NATS headers carry it too). */
export const REQUEST_ID_KEY = 'x-request-id';
export const CALLER_ID_KEY = 'x-caller-id';
