import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import { authorizeRole, requireOrg, requireUser } from '../auth/authenticate.js';
import { soleOrganizationHandle } from '../identity/sole-organization.js';
import { spendKeyChallenge } from '../sign-in/key-challenge.js';
import { etagOf, ifMatchRefused, ifMatchVersion } from '../items/menu-version.js';
import { orderMerchant } from '../orders/order-merchant.js';
import { order, type OrderJson } from '../orders/order-answers.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import type { RouteDefinition } from '../routes/route-definition.js';
import { callOptions, orgRef } from '../routes/service-call.js';
import type { GatewayDeps } from '../deps.js';
import { shopProfile } from '../federation/shop-profile.js';
import { siteInputs } from '../site/site-inputs.js';
import { handleField } from '../identity/organization-fields.js';
import type { AnyServiceName } from './own-services.js';
import type { RpcRouteOptions } from './rpc-route.js';

type Options = RpcRouteOptions<AnyServiceName>;
type Input = Parameters<NonNullable<Options['after']>>[1];
type Json = Record<string, unknown>;

/**
 * A step of the gateway around an RPC that its route names in the contract (`hooks` of ctk.api.v1.http):
 * what only the gateway knows or sets. `options` adds to the route's declaration before it is made;
 * `route` wraps the route made.
 */
export type RouteHook = { options?: (options: Options) => Options; route?: (route: RouteDefinition) => RouteDefinition };

/** Runs `step` on the answer after what the route already runs on it. */
const after =
  (step: NonNullable<Options['after']>) =>
  (options: Options): Options => ({
    ...options,
    after: (json, input, response) => {
      options.after?.(json, input, response);
      step(json, input, response);
    },
  });

/** Gives request fields from the request, beside what the route already fills. */
const fill =
  (fields: string[], from: (input: Input) => Json | Promise<Json>) =>
  (options: Options): Options => ({
    ...options,
    fill: {
      fields: [...(options.fill?.fields ?? []), ...fields],
      from: async (input) => ({ ...(await options.fill?.from(input)), ...(await from(input)) }),
    },
  });

const header = (name: string, value: (json: Json) => string) => after((json, { reply }) => void reply.header(name, value(json)));

export function routeHooks(deps: GatewayDeps): Record<string, RouteHook> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  /** The organisation the body's `org_handle` names, whoever calls (404 for a handle none has). */
  const bodyOrg = async (input: { body: unknown }) => {
    const handle = (input.body as { org_handle: string }).org_handle;
    const org = await deps.credentials.org(handle);
    if (!org) throw new AppError('not_found', `No organisation with handle "${handle}".`, { field: 'org_handle' });
    return org;
  };
  return {
    // What changes as it is paid or used (an order, a card's balance): never from a shared cache.
    no_store: { options: header('cache-control', () => 'no-store') },
    // Makes identities without a key (sign-in): the signup per-address limit, shared with onboarding.
    signup: { options: (options) => ({ ...options, signup: true }) },
    // The menu's version as its ETag, and a replacement only of the version read (If-Match).
    etag: {
      options: (options) => ({
        ...header('etag', (json) => etagOf(json.version as number))(options),
        answerHeaders: {
          ETag: { description: 'Its version in double quotes: send it back as If-Match to replace it', example: '"4"' },
        },
      }),
    },
    if_match: ifMatch('menu', async (request) => {
      const { menu } = await deps.services.pos.getMenu({ org: orgRef(requireOrg(request)) }, callOptions(request));
      return menu?.version ?? 0n;
    }),
    // The site's settings are replaced only from the version read, as the menu (decision 0035).
    site_if_match: ifMatch('site', async (request) => {
      const { site } = await deps.services.commerce.getSite({ org: orgRef(requireOrg(request)) }, callOptions(request));
      return site?.version ?? 0n;
    }),
    // pos's Order under the origin the caller reached (pos makes its links under CTK_PUBLIC_URL), with the shop's name and paymail.
    order: {
      options: (options) => ({ ...options, answer: 'order' }),
      route: (route) => ({
        ...route,
        answer: order,
        handle: async (input) => {
          const json = (await route.handle(input)) as OrderJson;
          const shown = rebasePaymentLinks(json, publicUrl, answerOrigin(input.request, publicUrl));
          return { ...shown, ...(await orderMerchant(deps, json.merchant_handle)) };
        },
      }),
    },
    // Links in the answer under the origin the caller reached (a BIP270 request's URLs).
    origin_public_url: { options: fill(['public_url'], ({ request }) => ({ publicUrl: answerOrigin(request, publicUrl) })) },
    // A POS card, and whether it is new: the one the address already had is 200.
    created: {
      options: (options) => ({
        ...after((json, { reply }, response) => {
          json.created = response.created;
          if (!response.created) reply.code(200);
        })(options),
        alsoStatus: 200,
      }),
    },
    // Where the provider sends events: this gateway's webhook route.
    webhook_url: {
      options: after((account, { request }) => {
        account.webhook_url = `${publicUrl}/api/webhooks/${account.provider as string}?org=${requireOrg(request).handle}`;
      }),
    },
    // A transaction as base64 BEEF, a few MB at most; the gRPC message to p2p (4 MiB at most) still fits.
    paygate_body: { options: (options) => ({ ...options, bodyLimit: PAYGATE_BODY_LIMIT }) },
    // What shared caches may keep as long as the answer says (the payment gate's published keys).
    public_max_age: {
      options: (options) => ({
        ...header('cache-control', (json) => `public, max-age=${json.max_age_seconds as number}`)(options),
        answerHeaders: {
          'cache-control': {
            description: 'public, max-age=<max_age_seconds>: shared caches may keep it as long',
            example: 'public, max-age=30',
          },
        },
      }),
    },
    // The organisation the body names, whoever calls: any user may buy at any shop (404 for a handle none has).
    any_org: {
      route: (route) => ({
        ...route,
        handle: async (input) => {
          input.request.org = { ...(await bodyOrg(input)), role: null };
          return route.handle(input);
        },
      }),
    },
    // POST /api/v1/stablecoin/intents: the shop the body names, whoever calls, with the caller's role in it when
    // they have one; commerce decides what the caller may open (anyone: a checkout's; staff: an order's or an amount's).
    intent_org: {
      route: (route) => ({
        ...route,
        handle: async (input) => {
          const org = await bodyOrg(input);
          const caller = input.request.caller;
          input.request.org = { ...org, role: caller.kind === 'user' ? await deps.credentials.role(caller.userId, org.id) : null };
          return route.handle(input);
        },
      }),
    },
    // The organisation the body names or, when it names none, the caller's only one, where the caller needs staff (an item for the caller).
    sole_org: {
      route: (route) => ({
        ...route,
        body: (route.body as z.ZodObject).partial({ org_handle: true }),
        bodyExample: { org_handle: 'blue-bottle-cafe', ...(route.bodyExample as object) },
        handle: async (input) => {
          const named = (input.body as { org_handle?: string }).org_handle;
          const handle = named ?? (await soleOrganizationHandle(deps, requireUser(input.request).userId));
          await authorizeRole(input.request, 'staff', deps.credentials, handle);
          return route.handle(input);
        },
      }),
    },
    // A key proven by a signed bind_card challenge (decision 0024), spent here: the service gets its key as proven_key.
    key_proof: {
      options: fill(['proven_key'], async ({ body }) => {
        const { proof } = validate(KEY_PROOF, { proof: (body as Json).proof }, 'body');
        return { provenKey: proof ? (await spendKeyChallenge(deps, proof, 'bind_card')).publicKey.toString() : '' };
      }),
    },
    // What the shop's feed and open sign show of the organisation the request resolved (its name, time zone, place).
    shop_profile: { options: fill(['profile'], async ({ request }) => ({ profile: await shopProfile(deps, requireOrg(request).id) })) },
    // POST /api/v1/feeds: a body naming `org_handle` publishes that organisation's feed (its admin only); one without carries `feed`.
    feed_publisher: {
      route: (route) => ({
        ...route,
        body: (route.body as z.ZodObject).extend({ org_handle: handleField.optional() }),
        bodyExample: { org_handle: 'blue-bottle-cafe' },
        handle: async (input) => {
          const handle = (input.body as { org_handle?: string }).org_handle;
          if (handle !== undefined) await authorizeRole(input.request, 'admin', deps.credentials, handle);
          return route.handle(input);
        },
      }),
      options: fill(['publisher', 'profile'], async ({ request }) =>
        request.org ? { publisher: orgRef(request.org), profile: await shopProfile(deps, request.org.id) } : {},
      ),
    },
    // What the site shows that only the gateway knows: the commerce key and the Buy button's script (decision 0035).
    site_inputs: { options: fill(['inputs'], async ({ request }) => ({ inputs: await siteInputs(deps, requireOrg(request).id) })) },
    // POST checks the order lines the caller has against the receipt's hash.
    check_lines: { options: fill([], () => ({ checkLines: true })) },
  };
}

const PAYGATE_BODY_LIMIT = 4_000_000;

/**
 * A replacement only of the version read (If-Match, a strong ETag of digits): the request's
 * `expected_version`; a missing or unusable one is 412, naming the current version `current` reads.
 */
function ifMatch(what: 'menu' | 'site', current: (request: Input['request']) => Promise<bigint>): RouteHook {
  return {
    options: (options) => ({
      ...fill(['expected_version'], async ({ request }) => {
        const sent = request.headers['if-match'];
        const expectedVersion = ifMatchVersion(sent);
        if (expectedVersion !== null) return { expectedVersion };
        throw ifMatchRefused(sent, await current(request), what);
      })(options),
      headers: {
        'If-Match': {
          description: `The ETag of the ${what} the change was made to; missing or stale: 412 precondition_failed, and nothing changes`,
          example: '"4"',
          required: true,
        },
      },
      errors: [...(options.errors ?? []), 'precondition_failed'],
    }),
  };
}

/** A signed challenge (POST /api/auth/challenge with "purpose": "bind_card"), as the gateway spends it. */
const KEY_PROOF = z.object({
  proof: z
    .object({
      nonce: z.string().regex(/^[0-9a-f]{32}$/, 'the nonce of the challenge'),
      signature: z.string().regex(/^[0-9a-f]{16,200}$/i, 'a DER-encoded ECDSA signature of the challenge message, in hex'),
    })
    .optional(),
});
