export { paygate, type Paygate } from './paygate.js';
export { createPaygate, type PaygateCore, type PaygateDecision, type PaygateRequest } from './create-paygate.js';
export { paygateFastify, fastifyHook, type PaygateFastifyOptions } from './fastify-plugin.js';
export { paygateExpress, type ExpressLikeMiddleware, type ExpressLikeRequest } from './express-middleware.js';
export type { PaygateOptions } from './paygate-options.js';
export type { CredentialRefusal } from './check-credential.js';
