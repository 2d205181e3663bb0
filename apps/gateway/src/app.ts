import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  closeServiceClients,
  countHttpRequest,
  currentRequestId,
  createServiceClients,
  defineService,
  type Logger,
  type ServiceContext,
  type ServiceParts,
} from '@ctk/shared';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { startMovingOwnerFacts } from './identity/move-owner-facts.js';
import { Credentials } from './auth/credentials.js';
import { configSchema, type Config } from './config.js';
import { PrismaClient } from './data/prisma.js';
import type { GatewayDeps } from './deps.js';
import { llmsTxt } from './descriptors/llms-txt.js';
import { answerOrigin } from './origin/answer-origin.js';
import { openApiDocument } from './descriptors/openapi.js';
import { serveCheckoutScript } from './pages/serve-checkout-script.js';
import { serveBackOffice } from './pages/serve-back-office.js';
import { servePages } from './pages/serve-pages.js';
import { registerCors } from './plugins/cors.js';
import { answerClientError, answerRouterError, registerErrorHandling } from './plugins/errors.js';
import { refuseContentEncoding } from './plugins/request-refusals.js';
import { nameServerSpan, requestIdOf, tracedServerFactory } from './plugins/request-context.js';
import { finishIdempotent } from './plugins/idempotency.js';
import { clientAddress, rateLimited } from './plugins/rate-limits.js';
import { contractRoutes } from './contract/contract-routes.js';
import { commerceRoutes } from './routes/commerce-routes.js';
import { stablecoinRoutes } from './routes/stablecoin-routes.js';
import { ticketRoutes } from './routes/ticket-routes.js';
import { signRoutes } from './routes/sign-routes.js';
import { providerRoutes } from './routes/provider-routes.js';
import { itemAnalyzeRoutes } from './routes/item-analyze-routes.js';
import { ledgerRoutes } from './routes/ledger-routes.js';
import { walletPassRoutes } from './routes/wallet-pass-routes.js';
import { orderRoutes } from './routes/order-routes.js';
import { referralRoutes } from './routes/referral-routes.js';
import { payLinkRoutes } from './routes/pay-link-routes.js';
import { paymailRoutes } from './routes/paymail-routes.js';
import { registerCatalog } from './routes/register-catalog.js';
import type { RouteDefinition } from './routes/route-definition.js';
import { serviceInfoRoutes } from './routes/service-info-routes.js';
import { walletRoutes } from './routes/wallet-routes.js';

export { configSchema, type Config } from './config.js';

const ANONYMOUS = Object.freeze({ kind: 'anonymous' as const });

/**
 * The gateway, started by the one bootstrap like every app: its identity database, a gRPC client per
 * service, and the HTTP API on PORT (0: any free port).
 */
export const service = defineService<Config, PrismaClient>({
  name: 'gateway',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: async (context) => (await buildGateway(context)).parts,
});

/** The Fastify app on its dependencies, and the parts the bootstrap serves and closes (tests build it too, to `inject`). */
export async function buildGateway({
  config,
  prisma,
  logger,
}: ServiceContext<Config, PrismaClient>): Promise<{ app: FastifyInstance; deps: GatewayDeps; parts: ServiceParts }> {
  const services = createServiceClients(config);
  const deps: GatewayDeps = { config, prisma, services, credentials: new Credentials(prisma, config.CTK_AUTH_CACHE_SECONDS) };
  const app = await buildApp(deps, logger);
  // What the gateway once kept of p2p's and books' facts goes to them (decision 0028).
  const moving = startMovingOwnerFacts(deps, logger);
  const parts: ServiceParts = {
    http: {
      async listen() {
        await app.listen({ port: config.PORT, host: config.HOST });
        return (app.server.address() as AddressInfo).port;
      },
      close: () => app.close(),
    },
    close: async () => {
      await moving.stop();
      closeServiceClients(services);
    },
  };
  return { app, deps, parts };
}

/** What a route with a Fastify schema to compile meets: the gateway validates with zod (decision 0026). */
function noFastifySchema({ url }: { url: string }): never {
  throw new Error(`${url}: a Fastify schema on a route is never compiled here; read the request with the contract's zod schema`);
}

/** The Fastify app: plugins, and every catalog route with its handler (or 501). */
async function buildApp(deps: GatewayDeps, logger: Logger): Promise<FastifyInstance> {
  const { config, prisma } = deps;
  const requestTimeout = config.CTK_REQUEST_TIMEOUT_SECONDS * 1000;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.CTK_BODY_LIMIT_BYTES,
    // A client that sends less than it announced is cut off rather than holding a connection for minutes.
    // Node checks for late requests on an interval (30 s by default): check often enough to keep the bound.
    requestTimeout,
    http: { headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout / 2) },
    // A path parameter may be a paymail (up to 320 characters) or a BEEF-sized txid route; the default is 100.
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors: answerRouterError,
    // What Node refuses itself (408, 431, unparsable HTTP) answers in the one error body too.
    clientErrorHandler: answerClientError,
    // The client address (rate limits, anonymous idempotency) comes from X-Forwarded-For only when a trusted proxy sent it.
    trustProxy: config.CTK_TRUSTED_PROXIES.length > 0 ? config.CTK_TRUSTED_PROXIES : false,
    // Each request in its own context: its request id (chosen here too when a test injects it) and its trace.
    serverFactory: tracedServerFactory,
    genReqId: requestIdOf,
    // Lines logged for a request name it from that context (logger.ts): no child logger per request.
    childLoggerFactory: (logger, bindings, options) => (currentRequestId() ? logger : logger.child(bindings, options)),
    // Requests are read with the contract's zod schemas and answers written by their views, never by a route's
    // Fastify schema: Fastify then loads no Ajv and no fast-json-stringify (a tenth of a second of the start).
    // (Their types are Ajv's and fast-json-stringify's, which this never loads.)
    schemaController: {
      compilersFactory: { buildValidator: (() => noFastifySchema) as never, buildSerializer: (() => noFastifySchema) as never },
    },
  });
  app.decorateRequest('caller', null as never);
  // Hooks on every request are callback-style: no promise where there is nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    request.caller = ANONYMOUS;
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done(refuseContentEncoding(request));
  });
  registerErrorHandling(app);
  // Routes outside the catalog (docs, health, unknown paths) are limited per client address here;
  // catalog routes spend their caller's allowance after authentication (routes/register-catalog.ts).
  await app.register(rateLimit, {
    max: config.CTK_RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: clientAddress,
    errorResponseBuilder: (_request, context) => rateLimited(context.max, Math.ceil(context.ttl / 1000)),
  });

  const implemented = new Set<string>();
  const groups: Record<string, RouteDefinition>[] = [
    itemAnalyzeRoutes(deps),
    ledgerRoutes(deps),
    orderRoutes(deps),
    referralRoutes(deps),
    payLinkRoutes(deps),
    commerceRoutes(deps),
    ticketRoutes(deps),
    stablecoinRoutes(deps),
    signRoutes(deps),
    providerRoutes(deps),
    walletPassRoutes(deps),
    paymailRoutes(deps),
    walletRoutes(deps),
    serviceInfoRoutes(deps, implemented),
  ];
  const handwritten = new Map(groups.flatMap((group) => Object.entries(group)));
  const handlers = new Map([...handwritten, ...contractRoutes(deps, handwritten)]);
  for (const key of handlers.keys()) implemented.add(key);
  registerCors(app, handlers);
  // JSON in another media type (BIP270's Payment), for the routes that declare it (routes/register-catalog.ts refuses it elsewhere).
  const jsonAlso = new Set([...handlers.values()].flatMap((definition) => (definition.jsonAlso ? [definition.jsonAlso.body] : [])));
  readJsonBodies(app, jsonAlso);

  registerCatalog(app, deps, handlers, jsonAlso);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    finishIdempotent(prisma, request, reply.statusCode, payload).then(() => done(null, payload), done);
  });
  // Every answer is logged and counted (ctk_http_*) by the route template it matched, never its URL.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    request.log.info({ method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    nameServerSpan(request.raw, request.method, route);
    countHttpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // The OpenAPI document is made when first asked for: making it is about 0.1 s of a start. Every answer of it
  // goes through `servedFrom` (transformSpecification), so the document @fastify/swagger-ui's required
  // @fastify/swagger holds is never served.
  let openApi: ReturnType<typeof openApiDocument> | undefined;
  await app.register(swagger, { mode: 'static', specification: { document: { openapi: '3.1.0' } as never } });
  // `servers` is the origin the reader reached (answerOrigin), so /docs "Try it out" calls the service it was
  // loaded from (localhost or 127.0.0.1), within the page's own origin; the document is answered, not stored.
  const servedFrom = (request: FastifyRequest) => ({
    ...(openApi ??= openApiDocument(handlers, config.CTK_PUBLIC_URL)),
    servers: [{ url: answerOrigin(request, config.CTK_PUBLIC_URL) }],
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecification: (_document, request) => servedFrom(request),
    transformSpecificationClone: false,
  });
  app.get('/api/v1/openapi.json', async (request) => servedFrom(request));
  const guide = llmsTxt(implemented, config.CTK_PUBLIC_URL);
  app.get('/llms.txt', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(guide));
  // The counter screen and the customer page: pages that call the API, outside its catalog as /docs is.
  servePages(app);
  // The Buy button merchants embed: a versioned script, cached for good and pinned by its SRI hash.
  serveCheckoutScript(app);
  // The merchant's back office when it is built beside the gateway (the embedded default), else the docs.
  if (config.CTK_BACK_OFFICE_DIR) serveBackOffice(app, config.CTK_BACK_OFFICE_DIR);
  else app.get('/', async (_request, reply) => reply.redirect('/docs'));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    await prisma.$queryRaw`SELECT 1`;
    return { status: 'ready' };
  });

  return app;
}

/**
 * Reads JSON bodies (and those of the `also` media types) keeping the raw body: webhook signatures are over
 * the exact bytes received (kept as bytes, so that no decoding can change them), idempotency hashes over their text.
 */
function readJsonBodies(app: FastifyInstance, also: ReadonlySet<string>) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(['application/json', ...also], { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBodyBytes = body as Buffer;
    request.rawBody = (body as Buffer).toString('utf8');
    parse(request, request.rawBody, done);
  });
}
