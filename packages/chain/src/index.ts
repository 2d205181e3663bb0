export * from './client/types.js';
export {
  createChainClient,
  chainEndpoints,
  DEFAULT_LOCAL_CHAIN_URL,
  HISTORIES_AT_ONCE,
  type ChainClientOptions,
} from './client/create-chain-client.js';
export { MNEE_TOKEN_ID, MNEE_DECIMALS, type StablecoinOptions } from './client/stablecoin-config.js';
export { stateOfArcStatus } from './client/arc-adapter.js';
export { tscToMerklePath, type TscProof } from './client/tsc-proof.js';
export { chainConfigFields, chainConfigSchema, chainClientOptions, type ChainConfig } from './config.js';
export { decodeTransaction, detectFormat, hexToBytes, type TxFormat, type DecodedTransaction } from './tx-format.js';
export {
  receiptScript,
  parseReceipt,
  findReceipt,
  hashOrderLines,
  canonicalOrderLines,
  orderLineSchema,
  orderLinesSchema,
  RECEIPT_PROTOCOL,
  RECEIPT_VERSION,
  type Receipt,
  type OrderLine,
} from './receipt/index.js';
export {
  verifyPayment,
  type PaymentSource,
  type VerifyPaymentInput,
  type VerifiedPayment,
  type ExpectedOutput,
  type PaidOutput,
} from './verify/verify-payment.js';
export {
  verifyTokenPayment,
  type ExpectedTokenPayment,
  type VerifyTokenPaymentInput,
  type VerifiedTokenPayment,
} from './verify/verify-token-payment.js';
export {
  checkInputScripts,
  scriptCheckEngine,
  type SpentCoin,
  type ScriptChecks,
  type ScriptFailure,
} from './verify/check-input-scripts.js';
export { verifyBeef, type VerifiedBeef } from './verify/verify-beef.js';
export { publicChild, type PublicNode } from './keys/public-child.js';
export { addressOfScript, networkAddress, addressOfPublicKey, scriptOfAddress } from './network-address.js';
export {
  parseTokenOutput,
  tokenLock,
  tokenTransferOutput,
  cosignOwnerUnlock,
  cosignInput,
  inputSignature,
  isInputSignatureValid,
  formatTokenUnits,
  isTokenId,
  BSV20_CONTENT_TYPE,
  MAX_TOKEN_AMOUNT,
  MAX_TOKEN_DECIMALS,
  TOKEN_ID_PATTERN,
  SIGHASH_ALL_FORKID,
  type TokenInscription,
  type TokenOp,
  type TokenOutput,
} from './tokens/index.js';
export { parseMultisig, multisigLock, MAX_MULTISIG_KEYS, type MultisigLock } from './scripts/multisig.js';
export {
  outputCovenantLock,
  outputCovenantUnlock,
  outputCovenantPreimage,
  outputCovenantSpendBytes,
  hashOfOutputs,
  type CovenantOutput,
} from './scripts/output-covenant.js';
