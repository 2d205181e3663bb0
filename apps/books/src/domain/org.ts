/** The organisation a call acts for, as the gateway resolved it from the request path. */
export type Org = { id: string; handle: string };
