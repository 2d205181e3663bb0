/**
 * Every satoshi there can be: 21 million bitcoin of 100 million satoshis each (a node's MAX_MONEY). No
 * output, price or order pays more; it is within Number's safe integers and PostgreSQL's int64 alike.
 */
export const MAX_SATOSHIS = 21_000_000 * 100_000_000;

/** {@link MAX_SATOSHIS} for int64 fields, which the proto code reads as bigint. */
export const MAX_SATOSHIS_BIGINT = BigInt(MAX_SATOSHIS);
