import { PrivateKey } from '@bsv/sdk';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey } from './did-key.js';
import { ENDPOINTS, type Endpoint } from '../src/catalog/endpoints.js';
import { addMember, bearer, onboard, type Gateway } from './harness.js';
import { startOwnersStack } from './owners-harness.js';
import { everyKindOfEvent, getLedger, post, startLedgerStack } from './ledger-harness.js';
import { startOrderStack } from './order-harness.js';
import { merchantKeys, startPaymailStack, type PaymailStack } from './paymail-harness.js';
import { startPosStack } from './pos-harness.js';
import { uniqueName } from './support.js';

/*
 * The OpenAPI document describes what each built operation really answers: it validates as OpenAPI
 * 3.1, every built operation has a success schema and examples, and real answers of the routes the
 * gateway serves itself validate against the schema the document gives for them.
 */

type Media = { schema?: unknown; example?: unknown };
type Response = { description: string; content?: Record<string, Media> };
type Operation = { requestBody?: { content: Record<string, Media> }; responses: Record<string, Response> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const DOCUMENT_ID = 'https://commerce-toolkit.test/openapi.json';
// ajv-formats is CommonJS: its function is the default export in node and under `default` in its types.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as AddFormats;

let gateway: Gateway;
let doc: Document;
let ajv: Ajv2020;

beforeAll(async () => {
  // p2p keeps the organisation's wallet (decision 0028): up; every other service, books too, down.
  gateway = await startOwnersStack({ down: 'books' });
  doc = (await gateway.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
});
afterAll(async () => {
  await gateway?.close();
});

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)$/, '{$1}');
const operationOf = (endpoint: Pick<Endpoint, 'method' | 'path'>) =>
  doc.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()] as Operation;
const isBuilt = (operation: Operation) => !('501' in operation.responses);
const successOf = (operation: Operation) => Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
/** A file of bytes (a wallet pass): its schema says `format: binary`, and the document gives no example of it. */
const isBinary = (media: Media) => (media.schema as { format?: string } | undefined)?.format === 'binary';
/** An operation that answers a file of bytes only (the Apple wallet pass, a ticket's QR code), no JSON. */
const answersBytesOnly = (operation: Operation) => {
  const media = Object.values(successOf(operation)?.[1].content ?? {});
  return media.length > 0 && media.every(isBinary);
};
/** An operation that answers 204 and no body (removing a priced resource). */
const answersNothing = (operation: Operation) => {
  const [status, answer] = successOf(operation) ?? [];
  return status === '204' && answer?.content === undefined;
};

/** Problems of a value against a schema of the document (its references resolved within the document), [] when it is valid. */
function problems(schema: unknown, value: unknown): string[] {
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)));
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The real answer validates against the schema the document gives for its operation, status and media type. */
function expectDocumented(method: Endpoint['method'], path: string, response: LightMyRequestResponse) {
  const operation = operationOf({ method, path });
  const documented = operation.responses[String(response.statusCode)];
  expect(documented, `${method} ${path} answered ${response.statusCode}, which the document does not list: ${response.body}`).toBeDefined();
  const media = String(response.headers['content-type']).split(';')[0] as string;
  const schema = documented?.content?.[media]?.schema;
  expect(schema, `${method} ${path} ${response.statusCode}: no schema for ${media}`).toBeDefined();
  const body = media === 'application/json' ? response.json() : response.body;
  expect(problems(schema, body), `${method} ${path} ${response.statusCode}`).toEqual([]);
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('gives every built operation a JSON success schema and example (or answers bytes only, or nothing), and every request body an example', () => {
    const operations = ENDPOINTS.map((endpoint) => ({ key: `${endpoint.method} ${endpoint.path}`, operation: operationOf(endpoint) }));
    const built = operations.filter(({ operation }) => isBuilt(operation));
    const bytesOnly = built.filter(({ operation }) => answersBytesOnly(operation));
    expect(bytesOnly.map((o) => o.key)).toEqual([
      'GET /api/v1/passes/coffee/:card_id/apple',
      'GET /api/v1/tickets/:code/qr',
      'GET /api/v1/stablecoin/intents/:payment_id/qr',
      'GET /api/v1/referral-checkouts/:id/qr',
    ]);
    const withSchema = built.filter(
      ({ operation }) =>
        successOf(operation)?.[1].content?.['application/json']?.schema || answersBytesOnly(operation) || answersNothing(operation),
    );
    // The figure that matters: built operations with a success schema, of all operations.
    console.info(
      `OpenAPI: ${withSchema.length} of ${built.length} built operations have a success schema; ` +
        `${operations.length - built.length} of ${operations.length} are not built and answer 501.`,
    );
    expect(built.filter((o) => !withSchema.includes(o)).map((o) => o.key)).toEqual([]);

    const withoutExample = built.flatMap(({ key, operation }) => {
      const missing: string[] = [];
      if (
        !answersBytesOnly(operation) &&
        !answersNothing(operation) &&
        successOf(operation)?.[1].content?.['application/json']?.example === undefined
      )
        missing.push(`${key}: success example`);
      if (operation.requestBody && operation.requestBody.content['application/json']?.example === undefined)
        missing.push(`${key}: request example`);
      return missing;
    });
    expect(withoutExample).toEqual([]);
  });

  it('has examples that validate against the schemas they illustrate', () => {
    const invalid: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const operation = operationOf(endpoint);
      if (!isBuilt(operation)) continue;
      const key = `${endpoint.method} ${endpoint.path}`;
      const request = operation.requestBody?.content['application/json'];
      if (request) invalid.push(...problems(request.schema, request.example).map((p) => `${key} request: ${p}`));
      for (const [media, content] of Object.entries(successOf(operation)?.[1].content ?? {})) {
        if (isBinary(content) && content.example === undefined) continue;
        invalid.push(...problems(content.schema, content.example).map((p) => `${key} ${media}: ${p}`));
      }
    }
    expect(invalid).toEqual([]);
  });

  it('lists the errors an operation can answer: 401 when it takes credentials, 403 with a role, 422 for input, 501 where not built', () => {
    const wrong: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const operation = operationOf(endpoint);
      const statuses = Object.keys(operation.responses);
      const key = `${endpoint.method} ${endpoint.path}`;
      if (!isBuilt(operation)) {
        if (statuses.join() !== '501') wrong.push(`${key}: not built, answers ${statuses.join()}`);
        continue;
      }
      if (endpoint.auth !== 'none' && !statuses.includes('401')) wrong.push(`${key}: no 401`);
      if (endpoint.role && !statuses.includes('403')) wrong.push(`${key}: no 403`);
      if (operation.requestBody && !statuses.includes('422')) wrong.push(`${key}: no 422`);
      if (!statuses.includes('429')) wrong.push(`${key}: no 429`);
    }
    expect(wrong).toEqual([]);
  });

  it('describes the wallet passes: the Apple one as a .pkpass file with its disposition, the Google one as JSON', () => {
    const [status, answer] = successOf(operationOf({ method: 'GET', path: '/api/v1/passes/coffee/:card_id/apple' }))!;
    expect(status).toBe('200');
    expect(Object.keys(answer.content ?? {})).toEqual(['application/vnd.apple.pkpass']);
    expect(answer.content?.['application/vnd.apple.pkpass']?.schema).toMatchObject({ type: 'string', format: 'binary' });
    expect((answer as { headers?: Record<string, unknown> }).headers).toHaveProperty('content-disposition');
    const googleAnswer = successOf(operationOf({ method: 'GET', path: '/api/v1/passes/coffee/:card_id/google' }))![1];
    expect(googleAnswer.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/GoogleWalletPass' });
  });

  it("describes BIP270's Payment in its own media types besides JSON, and the PaymentACK answered in them", () => {
    const operation = operationOf({ method: 'POST', path: '/api/pos/orders/:order_number/payment' });
    const request = operation.requestBody?.content ?? {};
    expect(Object.keys(request)).toEqual(['application/json', 'application/bitcoinsv-payment']);
    expect(request['application/bitcoinsv-payment']).toEqual(request['application/json']);
    const [status, answer] = successOf(operation)!;
    expect(status).toBe('200');
    expect(Object.keys(answer.content ?? {})).toEqual(['application/json', 'application/bitcoinsv-paymentack']);
    expect(answer.content?.['application/bitcoinsv-paymentack']).toEqual(answer.content?.['application/json']);
  });

  it('describes the ledger exports by their media types', () => {
    const content = successOf(operationOf({ method: 'GET', path: '/api/v1/orgs/:handle/ledger' }))?.[1].content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'text/csv', 'text/plain']);
    expect(content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/JournalEntryPage' });
  });
});

describe('real answers validate against the document', () => {
  /** A documented request example, less the jurisdiction: books, which checks it, is down in these tests. */
  const exampleBody = (method: Endpoint['method'], path: string) => {
    const { jurisdiction: _, ...body } = operationOf({ method, path }).requestBody?.content['application/json']?.example as Record<
      string,
      unknown
    >;
    return body;
  };

  it('onboarding, organisations and the caller', async () => {
    const onboarded = await gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: exampleBody('POST', '/api/v1/onboard') });
    expect(onboarded.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/onboard', onboarded);
    const key = onboarded.json().api_key.key as string;
    const handle = onboarded.json().organization.handle as string;

    // With a key: an organisation added to the caller, no api_key in the answer.
    const added = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      headers: bearer(key),
      payload: { name: 'Blue Bottle Cafe' },
    });
    expect(added.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/onboard', added);

    const created = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/organizations',
      headers: bearer(key),
      payload: exampleBody('POST', '/api/v1/organizations'),
    });
    expect(created.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/organizations', created);

    expectDocumented(
      'GET',
      '/api/v1/organizations',
      await gateway.app.inject({ method: 'GET', url: '/api/v1/organizations?limit=2', headers: bearer(key) }),
    );
    expectDocumented(
      'GET',
      '/api/v1/organizations/:handle',
      await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${handle}`, headers: bearer(key) }),
    );
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${handle}`,
      headers: bearer(key),
      payload: exampleBody('PATCH', '/api/v1/organizations/:handle'),
    });
    expect(patched.statusCode).toBe(200);
    expectDocumented('PATCH', '/api/v1/organizations/:handle', patched);
    expectDocumented('GET', '/api/v1/me', await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) }));
  });

  it('API keys, members and roles, and the organisation keys', async () => {
    const owner = await onboard(gateway, uniqueName('Access'));
    const as = bearer(owner.key);
    const orgUrl = `/api/v1/orgs/${owner.handle}`;

    const newKey = await gateway.app.inject({ method: 'POST', url: '/api/v1/me/api-keys', headers: as, payload: { name: 'Till 2' } });
    expectDocumented('POST', '/api/v1/me/api-keys', newKey);
    expectDocumented('GET', '/api/v1/me/api-keys', await gateway.app.inject({ method: 'GET', url: '/api/v1/me/api-keys', headers: as }));
    expectDocumented(
      'DELETE',
      '/api/v1/me/api-keys/:id',
      await gateway.app.inject({ method: 'DELETE', url: `/api/v1/me/api-keys/${newKey.json().id}`, headers: as }),
    );

    const added = await gateway.app.inject({
      method: 'POST',
      url: `${orgUrl}/members`,
      headers: as,
      payload: { name: 'Ben', role: 'staff' },
    });
    expectDocumented('POST', '/api/v1/orgs/:handle/members', added);
    const existing = await addMember(gateway, owner, 'admin');
    const byId = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${(await onboard(gateway, uniqueName('Other'))).handle}/members`,
      headers: bearer(existing.key),
      payload: { user_id: existing.userId, role: 'staff' },
    });
    expect(byId.statusCode).toBe(403);
    expectDocumented('POST', '/api/v1/orgs/:handle/members', byId);
    expectDocumented(
      'GET',
      '/api/v1/orgs/:handle/members',
      await gateway.app.inject({ method: 'GET', url: `${orgUrl}/members`, headers: as }),
    );
    const memberUrl = `${orgUrl}/members/${added.json().member.user_id}`;
    expectDocumented(
      'PATCH',
      '/api/v1/orgs/:handle/members/:user_id',
      await gateway.app.inject({ method: 'PATCH', url: memberUrl, headers: as, payload: { role: 'admin' } }),
    );
    expectDocumented(
      'DELETE',
      '/api/v1/orgs/:handle/members/:user_id',
      await gateway.app.inject({ method: 'DELETE', url: memberUrl, headers: as }),
    );

    expectDocumented(
      'POST',
      '/api/v1/orgs/:handle/commerce-key',
      await gateway.app.inject({ method: 'POST', url: `${orgUrl}/commerce-key`, headers: as, payload: {} }),
    );
    const paygate = await gateway.app.inject({ method: 'POST', url: `${orgUrl}/paygate-keys`, headers: as, payload: { name: 'Paid API' } });
    expectDocumented('POST', '/api/v1/orgs/:handle/paygate-keys', paygate);
    expectDocumented(
      'GET',
      '/api/v1/orgs/:handle/paygate-keys',
      await gateway.app.inject({ method: 'GET', url: `${orgUrl}/paygate-keys`, headers: as }),
    );
    expectDocumented(
      'DELETE',
      '/api/v1/orgs/:handle/paygate-keys/:id',
      await gateway.app.inject({ method: 'DELETE', url: `${orgUrl}/paygate-keys/${paygate.json().id}`, headers: as }),
    );
  });

  it('key-based sign-in', async () => {
    const privateKey = PrivateKey.fromRandom();
    const challenge = await gateway.app.inject({
      method: 'POST',
      url: '/api/auth/challenge',
      payload: { did: didKeyFromPublicKey(privateKey.toPublicKey()) },
    });
    expectDocumented('POST', '/api/auth/challenge', challenge);
    const { nonce, message } = challenge.json();
    const signature = privateKey.sign(message, 'utf8').toDER('hex') as string;
    expectDocumented(
      'POST',
      '/api/auth/verify',
      await gateway.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { nonce, signature } }),
    );
  });

  it('service information and the capability maps', async () => {
    const owner = await onboard(gateway, uniqueName('Map'));
    expectDocumented('GET', '/api/v1', await gateway.app.inject({ method: 'GET', url: '/api/v1' }));
    expectDocumented('GET', '/api/v1/capabilities', await gateway.app.inject({ method: 'GET', url: '/api/v1/capabilities' }));
    expectDocumented(
      'GET',
      '/api/v1/orgs/:handle/capabilities',
      await gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/capabilities`, headers: bearer(owner.key) }),
    );
  });

  it("the paymail routes the gateway answers from the organisation's registration", async () => {
    const identityKey = PrivateKey.fromRandom().toPublicKey().toString();
    await onboard(gateway, uniqueName('Paymail'), { paymail_alias: 'beans', identity_public_key: identityKey });
    const paymail = 'beans@localhost';
    expectDocumented('GET', '/.well-known/bsvalias', await gateway.app.inject({ method: 'GET', url: '/.well-known/bsvalias' }));
    expectDocumented(
      'GET',
      '/api/v1/bsvalias/id/:paymail',
      await gateway.app.inject({ method: 'GET', url: `/api/v1/bsvalias/id/${paymail}` }),
    );
    expectDocumented(
      'GET',
      '/api/v1/bsvalias/public-profile/:paymail',
      await gateway.app.inject({ method: 'GET', url: `/api/v1/bsvalias/public-profile/${paymail}` }),
    );
    expectDocumented(
      'GET',
      '/api/v1/bsvalias/verifypubkey/:paymail/:pubkey',
      await gateway.app.inject({ method: 'GET', url: `/api/v1/bsvalias/verifypubkey/${paymail}/${identityKey}` }),
    );
    // Errors too: the paymail routes answer them flat.
    expectDocumented(
      'GET',
      '/api/v1/bsvalias/id/:paymail',
      await gateway.app.inject({ method: 'GET', url: '/api/v1/bsvalias/id/nobody@localhost' }),
    );
  });

  it('errors in the one error body, under the status the document lists', async () => {
    expectDocumented('GET', '/api/v1/me', await gateway.app.inject({ method: 'GET', url: '/api/v1/me' }));
    expectDocumented(
      'POST',
      '/api/v1/onboard',
      await gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name: '' } }),
    );
    // Books checks a jurisdiction; it is down here, and the document says so.
    const unavailable = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Blue Bottle Cafe', jurisdiction: 'US-CA' },
    });
    expect(unavailable.statusCode).toBe(503);
    expectDocumented('POST', '/api/v1/onboard', unavailable);
    expectDocumented(
      'GET',
      '/api/v1/orgs/:handle/members',
      await gateway.app.inject({
        method: 'GET',
        url: '/api/v1/orgs/no-such-org/members',
        headers: bearer((await onboard(gateway, uniqueName('Err'))).key),
      }),
    );
  });
});

describe('real answers of the books service, through the gateway, validate against the document', () => {
  let stack: Awaited<ReturnType<typeof startLedgerStack>>;
  beforeAll(async () => {
    stack = await startLedgerStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('the ledger as JSON and as files, the reports and the tax table', async () => {
    const owner = await onboard(stack.gateway, uniqueName('Books'), { jurisdiction: 'US-CA' });
    await post(stack.gateway, everyKindOfEvent(owner.orgId));
    const ledgerPath = '/api/v1/orgs/:handle/ledger';
    expectDocumented('GET', ledgerPath, await getLedger(stack.gateway, owner.key, owner, '?limit=3'));
    for (const format of ['csv', 'quickbooks', 'xero', 'hledger', 'beancount'])
      expectDocumented('GET', ledgerPath, await getLedger(stack.gateway, owner.key, owner, `?format=${format}`));

    const reports = {
      sales: '?from=2026-03-01&to=2026-03-31&time_zone=America/Los_Angeles',
      'top-items': '?from=2026-03-01&to=2026-03-31',
      'busy-hours': '?from=2026-03-01&to=2026-03-31',
      'trial-balance': '?at=2026-03-31',
      'account-balances': '',
    };
    for (const [report, query] of Object.entries(reports)) {
      const response = await stack.gateway.app.inject({
        method: 'GET',
        url: `/api/v1/orgs/${owner.handle}/reports/${report}${query}`,
        headers: bearer(owner.key),
      });
      expect(response.statusCode, report).toBe(200);
      expectDocumented('GET', `/api/v1/orgs/:handle/reports/${report}`, response);
    }
    expectDocumented(
      'GET',
      '/api/v1/tax/jurisdictions',
      await stack.gateway.app.inject({ method: 'GET', url: '/api/v1/tax/jurisdictions?country=US' }),
    );
  });
});

describe('real answers of the pos service, through the gateway, validate against the document', () => {
  let stack: Awaited<ReturnType<typeof startPosStack>>;
  let posGateway: Gateway;
  beforeAll(async () => {
    stack = await startPosStack();
    posGateway = stack.gateway;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('items, created from the documented example and listed', async () => {
    const owner = await onboard(posGateway, uniqueName('Items'));
    const itemsPath = '/api/v1/orgs/:handle/items';
    const created = await posGateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/items`,
      headers: bearer(owner.key),
      payload: operationOf({ method: 'POST', path: itemsPath }).requestBody?.content['application/json']?.example as object,
    });
    expect(created.statusCode).toBe(201);
    expectDocumented('POST', itemsPath, created);
    expectDocumented(
      'GET',
      itemsPath,
      await posGateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/items`, headers: bearer(owner.key) }),
    );
  });

  it('the menu, read and replaced with the documented example made real, and an item for the caller', async () => {
    const owner = await onboard(posGateway, uniqueName('Menu'));
    const menuPath = '/api/v1/orgs/:handle/menu';
    const url = `/api/v1/orgs/${owner.handle}/menu`;
    const read = await posGateway.app.inject({ method: 'GET', url, headers: bearer(owner.key) });
    expectDocumented('GET', menuPath, read);

    const callerItem = await posGateway.app.inject({
      method: 'POST',
      url: '/api/v1/items',
      headers: bearer(owner.key),
      payload: {
        ...(operationOf({ method: 'POST', path: '/api/v1/items' }).requestBody?.content['application/json']?.example as object),
        org_handle: owner.handle,
      },
    });
    expect(callerItem.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/items', callerItem);

    // The example's sections, with ids of items this organisation has.
    const example = operationOf({ method: 'PUT', path: menuPath }).requestBody?.content['application/json']?.example as {
      sections: Array<{ name: string; item_ids: string[] }>;
    };
    const sections = example.sections.map((section) => ({ ...section, item_ids: [callerItem.json().id as string] }));
    const replaced = await posGateway.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(owner.key), 'if-match': read.headers.etag as string },
      payload: { sections },
    });
    expect(replaced.statusCode).toBe(200);
    expectDocumented('PUT', menuPath, replaced);
    const stale = await posGateway.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(owner.key), 'if-match': '"0"' },
      payload: { sections },
    });
    expect(stale.statusCode).toBe(412);
    expectDocumented('PUT', menuPath, stale);
  });

  it('POS cards: made from the documented example (201, then 200 for the same address), listed, read by id and by address', async () => {
    const owner = await onboard(posGateway, uniqueName('Cards'));
    // The example's address is a mainnet one; pos runs on the local chain here (testnet form).
    const address = PrivateKey.fromRandom().toAddress([0x6f]);
    const example = operationOf({ method: 'POST', path: '/api/pos/cards' }).requestBody?.content['application/json']?.example as object;
    const make = () =>
      posGateway.app.inject({
        method: 'POST',
        url: '/api/pos/cards',
        headers: bearer(owner.key),
        payload: { ...example, org_handle: owner.handle, holder: { address } },
      });
    const created = await make();
    expect(created.statusCode).toBe(201);
    expectDocumented('POST', '/api/pos/cards', created);
    const again = await make();
    expect(again.statusCode).toBe(200);
    expectDocumented('POST', '/api/pos/cards', again);
    const get = (url: string, key?: string) => posGateway.app.inject({ method: 'GET', url, ...(key ? { headers: bearer(key) } : {}) });
    expectDocumented('GET', '/api/pos/shops/:shop_id/cards', await get(`/api/pos/shops/${owner.handle}/cards`, owner.key));
    expectDocumented('GET', '/api/pos/cards/:card_id', await get(`/api/pos/cards/${created.json().id}`));
    expectDocumented('GET', '/api/pos/cards/address/:address', await get(`/api/pos/cards/address/${address}`));
    const mainnet = await get(`/api/pos/cards/address/${PrivateKey.fromRandom().toAddress([0x00])}`);
    expect(mainnet.statusCode).toBe(422);
    expectDocumented('GET', '/api/pos/cards/address/:address', mainnet);
  });

  it('the loyalty program and cards, from the documented examples', async () => {
    const owner = await onboard(posGateway, uniqueName('Loyalty'));
    const programPath = '/api/v1/orgs/:handle/loyalty-program';
    const url = `/api/v1/orgs/${owner.handle}/loyalty-program`;
    const example = (method: Endpoint['method'], path: string) =>
      operationOf({ method, path }).requestBody?.content['application/json']?.example as Record<string, unknown>;
    const inject = (method: Endpoint['method'], path: string, payload?: object, key = owner.key) =>
      posGateway.app.inject({ method, url: path, headers: bearer(key), ...(payload ? { payload } : {}) });
    expectDocumented('GET', programPath, await inject('GET', url));
    expectDocumented('PUT', programPath, await inject('PUT', url, example('PUT', programPath)));
    expectDocumented('GET', programPath, await inject('GET', url));
    // The example's holder is a mainnet address; this pos runs on the local chain.
    const issued = await inject('POST', '/api/pos/loyalty-cards', {
      ...example('POST', '/api/pos/loyalty-cards'),
      org_handle: owner.handle,
      holder: {},
    });
    expect(issued.statusCode).toBe(201);
    expectDocumented('POST', '/api/pos/loyalty-cards', issued);
    const card = issued.json();
    expectDocumented('GET', '/api/pos/loyalty-cards/:id', await inject('GET', `/api/pos/loyalty-cards/${card.id}`));
    expectDocumented(
      'GET',
      '/api/pos/loyalty-cards/lookup/:identifier',
      await inject('GET', `/api/pos/loyalty-cards/lookup/${card.identifier}`),
    );
    const redeemed = await inject('POST', `/api/pos/loyalty-cards/${card.id}/redeem`, {
      org_handle: owner.handle,
      identifier: card.identifier,
    });
    expect(redeemed.statusCode).toBe(409);
    expectDocumented('POST', '/api/pos/loyalty-cards/:id/redeem', redeemed);
    const transferred = await inject('POST', `/api/pos/loyalty-cards/${card.id}/transfer`, { org_handle: owner.handle });
    expectDocumented('POST', '/api/pos/loyalty-cards/:id/transfer', transferred);
    const customer = await onboard(posGateway, uniqueName('Customer'));
    const joined = await inject(
      'POST',
      '/api/v1/loyalty-cards',
      { ...example('POST', '/api/v1/loyalty-cards'), org_handle: owner.handle },
      customer.key,
    );
    expect(joined.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/loyalty-cards', joined);
    expectDocumented('GET', '/api/v1/wallet/loyalty-cards', await inject('GET', '/api/v1/wallet/loyalty-cards', undefined, customer.key));

    // Its wallet passes, for the holder: a .pkpass and a save link; 404 for a card that is not theirs.
    for (const platform of ['apple', 'google']) {
      const path = `/api/v1/passes/coffee/:card_id/${platform}`;
      const pass = await inject('GET', `/api/v1/passes/coffee/${joined.json().id}/${platform}`, undefined, customer.key);
      expect(pass.statusCode).toBe(200);
      expectDocumented('GET', path, pass);
      const notTheirs = await inject('GET', `/api/v1/passes/coffee/${card.id}/${platform}`, undefined, customer.key);
      expect(notTheirs.statusCode).toBe(404);
      expectDocumented('GET', path, notTheirs);
    }
  });
});

describe('real answers of the commerce service, through the gateway, validate against the document', () => {
  let stack: Awaited<ReturnType<typeof startOrderStack>>;
  beforeAll(async () => {
    stack = await startOrderStack({ commerce: true });
  }, 90_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('the profile, the catalog, an item, a checkout and its status, and their errors', async () => {
    const owner = await stack.walletOrg('Commerce');
    const items = await stack.gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/items`,
      headers: bearer(owner.key),
      payload: operationOf({ method: 'POST', path: '/api/v1/orgs/:handle/items' }).requestBody?.content['application/json']
        ?.example as object,
    });
    const item = items.json();
    const key = await stack.gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/commerce-key`,
      headers: bearer(owner.key),
    });
    const headers = { 'x-commerce-key': key.json().commerce_public_key as string };
    const base = `/api/v1/commerce/${owner.handle}`;
    const call = (method: Endpoint['method'], url: string, payload?: object) =>
      stack.gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const path = '/api/v1/commerce/:merchant_handle';
    expectDocumented('GET', path, await call('GET', base));
    expectDocumented('GET', `${path}/catalog`, await call('GET', `${base}/catalog`));
    expectDocumented('GET', `${path}/catalog/:id`, await call('GET', `${base}/catalog/${item.id}`));
    expectDocumented('GET', `${path}/catalog/:id`, await call('GET', `${base}/catalog/${owner.orgId}`));
    const created = await call('POST', `${base}/checkout`, { lines: [{ item_id: item.id, quantity: 2 }] });
    expect(created.statusCode).toBe(201);
    expectDocumented('POST', `${path}/checkout`, created);
    expectDocumented('POST', `${path}/checkout`, await call('POST', `${base}/checkout`, { lines: [{ item_id: owner.orgId }] }));
    const statusPath = `${path}/checkout/:public_token/status`;
    expectDocumented('GET', statusPath, await call('GET', `${base}/checkout/${created.json().public_token}/status`));
    expectDocumented('GET', statusPath, await call('GET', `${base}/checkout/cko_${'A'.repeat(32)}/status`));
    const other = await stack.walletOrg('Other');
    expectDocumented('GET', `${path}/catalog`, await call('GET', `/api/v1/commerce/${other.handle}/catalog`));
  });

  it('tickets: the catalog from the documented example, the list, a ticket checkout and its status, the orders, check-in and the QR', async () => {
    const owner = await stack.walletOrg('Tickets');
    const key = await stack.gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/commerce-key`,
      headers: bearer(owner.key),
    });
    const headers = { 'x-commerce-key': key.json().commerce_public_key as string };
    const admin = (method: Endpoint['method'], url: string, payload?: object) =>
      stack.gateway.app.inject({ method, url, headers: bearer(owner.key), ...(payload ? { payload } : {}) });
    const shopper = (method: Endpoint['method'], url: string, payload?: object) =>
      stack.gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const catalogPath = '/api/v1/orgs/:handle/tickets/catalog';
    const example = structuredClone(
      operationOf({ method: 'PUT', path: catalogPath }).requestBody?.content['application/json']?.example,
    ) as {
      events: { id?: string; starts_at: string; ends_at: string; ticket_types: { id?: string }[] }[];
    };
    // The example's ids are another catalog's, its dates past: a first catalog of new events, next year.
    for (const event of example.events) {
      delete event.id;
      event.starts_at = event.starts_at.replace('2026', String(new Date().getFullYear() + 1));
      event.ends_at = event.ends_at.replace('2026', String(new Date().getFullYear() + 1));
      for (const type of event.ticket_types) delete type.id;
    }
    const replaced = await admin('PUT', `/api/v1/orgs/${owner.handle}/tickets/catalog`, example);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expectDocumented('PUT', catalogPath, replaced);
    expectDocumented('PUT', catalogPath, await admin('PUT', `/api/v1/orgs/${owner.handle}/tickets/catalog`, { events: [{ name: '' }] }));
    const base = `/api/v1/commerce/${owner.handle}`;
    expectDocumented('GET', '/api/v1/commerce/:merchant_handle/tickets', await shopper('GET', `${base}/tickets`));
    const typeId = replaced.json().events[0].ticket_types[0].id as string;
    const checkoutPath = '/api/v1/commerce/:merchant_handle/tickets/checkout';
    const created = await shopper('POST', `${base}/tickets/checkout`, { lines: [{ ticket_type_id: typeId, quantity: 2 }] });
    expect(created.statusCode, created.body).toBe(201);
    expectDocumented('POST', checkoutPath, created);
    expectDocumented(
      'POST',
      checkoutPath,
      await shopper('POST', `${base}/tickets/checkout`, { lines: [{ ticket_type_id: typeId, quantity: 100 }] }),
    );
    const status = await shopper('GET', `${base}/checkout/${created.json().public_token}/status`);
    expect(status.json().tickets).toEqual([]);
    expectDocumented('GET', '/api/v1/commerce/:merchant_handle/checkout/:public_token/status', status);
    expectDocumented('GET', '/api/v1/orgs/:handle/tickets/orders', await admin('GET', `/api/v1/orgs/${owner.handle}/tickets/orders`));
    const checkIn = await admin('POST', `/api/v1/orgs/${owner.handle}/tickets/check-in`, { code: '0'.repeat(20) });
    expectDocumented('POST', '/api/v1/orgs/:handle/tickets/check-in', checkIn);
    expectDocumented('GET', '/api/v1/tickets/:code/qr', await admin('GET', `/api/v1/tickets/${'0'.repeat(20)}/qr`));
  });
});

describe('real answers of the payment gate (p2p), through the gateway, validate against the document', () => {
  let stack: PaymailStack;
  beforeAll(async () => {
    stack = await startPaymailStack();
  }, 90_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('priced resources from the documented example, a 402 to pass on, a free URL, the payments and the published keys', async () => {
    const owner = await onboard(stack.gateway, uniqueName('Gate'));
    const wallet = await stack.gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { wallet_xpub: merchantKeys().xpub },
    });
    expect(wallet.statusCode).toBe(200);
    const created = await stack.gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/paygate-keys`,
      headers: bearer(owner.key),
      payload: { name: 'Weather API' },
    });
    const headers = bearer(created.json().key as string);
    const call = (method: Endpoint['method'], url: string, payload?: object) =>
      stack.gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const example = (method: Endpoint['method'], path: string) =>
      operationOf({ method, path }).requestBody?.content['application/json']?.example as object;

    const resource = await call('POST', '/api/v1/402/resources', example('POST', '/api/v1/402/resources'));
    expect(resource.statusCode).toBe(201);
    expectDocumented('POST', '/api/v1/402/resources', resource);
    expectDocumented(
      'POST',
      '/api/v1/402/resources',
      await call('POST', '/api/v1/402/resources', example('POST', '/api/v1/402/resources')),
    );
    expectDocumented('GET', '/api/v1/402/resources', await call('GET', '/api/v1/402/resources'));
    const check = await call('POST', '/api/v1/402/check', example('POST', '/api/v1/402/check'));
    expect(check.json().outcome).toBe('payment_required');
    expectDocumented('POST', '/api/v1/402/check', check);
    expectDocumented('POST', '/api/v1/402/check', await call('POST', '/api/v1/402/check', { method: 'GET', url: '/menu' }));
    // The documented payment's coin was mined on no chain this instance knows: SPV refuses it.
    const verified = await call('POST', '/api/v1/402/verify', example('POST', '/api/v1/402/verify'));
    expect(verified.json().error?.code).toBe('payment_invalid');
    expectDocumented('POST', '/api/v1/402/verify', verified);
    expectDocumented('GET', '/api/v1/402/payments', await call('GET', '/api/v1/402/payments'));
    expectDocumented(
      'GET',
      '/.well-known/ctk-paygate.json',
      await stack.gateway.app.inject({ method: 'GET', url: '/.well-known/ctk-paygate.json' }),
    );

    const removed = await call('DELETE', `/api/v1/402/resources/${resource.json().id}`);
    expect({ status: removed.statusCode, body: removed.body }).toEqual({ status: 204, body: '' });
    expect(operationOf({ method: 'DELETE', path: '/api/v1/402/resources/:id' }).responses['204']).toEqual({
      description: 'Success: no content',
    });
    expectDocumented('DELETE', '/api/v1/402/resources/:id', await call('DELETE', `/api/v1/402/resources/${resource.json().id}`));
  });
});
