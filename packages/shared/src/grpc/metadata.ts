/** Metadata keys the gateway sends with every call, so services log with the same request id. */
export const REQUEST_ID_KEY = 'x-request-id';
export const CALLER_ID_KEY = 'x-caller-id';
