export {
  BSV20_CONTENT_TYPE,
  MAX_TOKEN_AMOUNT,
  MAX_TOKEN_DECIMALS,
  TOKEN_ID_PATTERN,
  isTokenId,
  type TokenInscription,
  type TokenOp,
  type TokenOutput,
} from './token-types.js';
export { parseTokenOutput } from './parse-token-output.js';
export { tokenLock, tokenTransferOutput } from './token-lock.js';
export { tokenJson } from './token-json.js';
export { cosignOwnerUnlock, cosignInput } from './cosign-unlock.js';
export { inputSignature, isInputSignatureValid, SIGHASH_ALL_FORKID } from './input-signature.js';
export { formatTokenUnits } from './token-units.js';
