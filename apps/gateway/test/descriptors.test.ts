import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/catalog/endpoints.js';
import { startTestGateway, type Gateway } from './harness.js';
import { concreteUrl, SERVICES_DOWN } from './support.js';

/* ---------- The spec, parsed here from the markdown (never from the gateway's catalog) ---------- */

type Row = { method: string; path: string; auth: string; role: string | null };

const SPEC = readFileSync(new URL('../../../docs/spec/commerce-toolkit-api.md', import.meta.url), 'utf8');

/** The text of a `## n.` section, up to the next `## `. */
function section(number: number): string {
  const start = SPEC.indexOf(`\n## ${number}. `);
  if (start < 0) throw new Error(`spec has no section ${number}`);
  const end = SPEC.indexOf('\n## ', start + 1);
  return SPEC.slice(start, end < 0 ? undefined : end);
}

/** The first markdown table in a text: header cells and rows of cells (backticks removed). */
function firstTable(text: string): { header: string[]; rows: string[][] } {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  if (first < 0) throw new Error(`no table in: ${text.slice(0, 80)}`);
  const tableLines: string[] = [];
  for (let i = first; i < lines.length && lines[i]?.startsWith('|'); i++) tableLines.push(lines[i] as string);
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/`/g, ''));
  const [header, , ...rows] = tableLines;
  return { header: cells(header as string), rows: rows.map(cells) };
}

/** Section 4: every endpoint row, with columns a table omits taken from its section's text ("All use auth bearer and role staff"). */
function specEndpoints(): Row[] & { bySection: Map<string, Row[]> } {
  const rows: Row[] = [];
  const bySection = new Map<string, Row[]>();
  for (const part of section(4).split('\n### ').slice(1)) {
    const title = part.slice(0, part.indexOf('\n'));
    const preface = part.slice(0, part.indexOf('\n|'));
    const defaults = {
      method: /\bAll (GET|POST|PUT|PATCH|DELETE)\b/.exec(preface)?.[1],
      auth: /\bauth (\w+)/.exec(preface)?.[1],
      role: /\brole (\w+)/.exec(preface)?.[1],
    };
    const table = firstTable(part);
    const column = (name: string) => table.header.findIndex((h) => h.toLowerCase() === name);
    const sectionRows = table.rows.map((cells) => {
      const pick = (name: string) => (column(name) >= 0 ? cells[column(name)] : undefined);
      const role = pick('role') ?? defaults.role ?? '-';
      const row = {
        method: pick('method') ?? defaults.method,
        path: pick('path'),
        auth: pick('auth') ?? defaults.auth,
        role: role === '-' ? null : role,
      };
      if (!row.method || !row.path || !row.auth) throw new Error(`incomplete spec row in ${title}: ${cells.join(' | ')}`);
      return row as Row;
    });
    bySection.set(title.split(' ')[0] as string, sectionRows);
    rows.push(...sectionRows);
  }
  return Object.assign(rows, { bySection });
}

const SPEC_ROWS = specEndpoints();
const SERVICE_INFO_ROWS = SPEC_ROWS.bySection.get('4.1') ?? [];
const AUTH_SCHEMES = firstTable(section(5)).rows.map((cells) => cells[0] as string);
const ROLE_TABLE: Record<string, string[]> = Object.fromEntries(
  firstTable(section(5).slice(section(5).indexOf('| Required role'))).rows.map((cells) => [
    cells[0],
    (cells[1] as string).split(',').map((r) => r.trim()),
  ]),
);
const RUNGS = firstTable(section(1)).rows.map((cells) => ({
  step: Number(cells[0]),
  id: cells[1] as string,
  capabilities: (cells[3] as string).split(',').map((c) => c.trim()),
}));
const CAPABILITY_IDS = RUNGS.flatMap((rung) => rung.capabilities);
const WITHOUT_ENDPOINTS = [...section(1).matchAll(/^\d+\. (\w+): .*No API endpoint\./gm)].map((m) => m[1] as string);
const MATURITIES: Record<string, string> = (() => {
  const sentence = /Capability maturities in the catalog: `(\w+)` for all capabilities except ([^\n]*)\./.exec(SPEC);
  if (!sentence) throw new Error('spec has no maturity sentence');
  const exceptions = Object.fromEntries([...(sentence[2] as string).matchAll(/(\w+) \(`(\w+)`\)/g)].map((m) => [m[1], m[2]]));
  return Object.fromEntries(CAPABILITY_IDS.map((id) => [id, exceptions[id] ?? (sentence[1] as string)]));
})();

const rowKey = (row: Row) => `${row.method} ${row.path} auth=${row.auth} role=${row.role ?? '-'}`;

/* ---------- Tests ---------- */

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(async () => {
  await gateway?.close();
});

describe('the spec as parsed by this test', () => {
  it('has 83 endpoint rows, all distinct, each naming a scheme of section 5', () => {
    expect(SPEC_ROWS).toHaveLength(83);
    expect(new Set(SPEC_ROWS.map((r) => `${r.method} ${r.path}`)).size).toBe(83);
    expect(AUTH_SCHEMES).toHaveLength(6);
    for (const row of SPEC_ROWS) expect(AUTH_SCHEMES).toContain(row.auth);
  });

  it('has six rungs with 24 capabilities, ten of them without an API endpoint', () => {
    expect(RUNGS.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(CAPABILITY_IDS).toHaveLength(24);
    expect(WITHOUT_ENDPOINTS).toHaveLength(10);
  });
});

describe('GET /api/v1, the service descriptor', () => {
  it("lists exactly the spec's 83 endpoints with their method, path, auth and role, plus only the catalog's extra rows", async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1' });
    expect(response.statusCode).toBe(200);
    const listed = (response.json().endpoints as Row[]).map(rowKey);
    const spec = SPEC_ROWS.map(rowKey);
    const extra = ENDPOINTS.filter((e) => e.extra).map(rowKey);

    expect(
      spec.filter((row) => !listed.includes(row)),
      'spec rows missing from the descriptor',
    ).toEqual([]);
    expect(
      listed.filter((row) => !spec.includes(row) && !extra.includes(row)),
      'rows neither in the spec nor extra',
    ).toEqual([]);
    expect(
      listed.filter((row, i) => listed.indexOf(row) !== i),
      'rows listed twice',
    ).toEqual([]);
    expect(listed.filter((row) => spec.includes(row))).toHaveLength(83);
  });

  it("has every extra row of the catalog outside the spec's (method, path) pairs", () => {
    const specPairs = new Set(SPEC_ROWS.map((r) => `${r.method} ${r.path}`));
    for (const endpoint of ENDPOINTS.filter((e) => e.extra)) expect(specPairs.has(`${endpoint.method} ${endpoint.path}`)).toBe(false);
  });

  it("names the service, version v1, the whoami request line, the six auth schemes and the spec's role table", async () => {
    const body = (await gateway.app.inject({ method: 'GET', url: '/api/v1' })).json();
    expect(typeof body.name).toBe('string');
    expect(body.name.length).toBeGreaterThan(0);
    expect(body.version).toBe('v1');
    expect(body.whoami).toBe('GET /api/v1/me');
    expect(Object.keys(body.auth).sort()).toEqual([...AUTH_SCHEMES].sort());
    for (const text of Object.values(body.auth)) expect(typeof text).toBe('string');
    expect(Object.keys(body.roles).sort()).toEqual(Object.keys(ROLE_TABLE).sort());
    for (const [required, satisfiedBy] of Object.entries(ROLE_TABLE))
      expect([...body.roles[required]].sort()).toEqual([...satisfiedBy].sort());
  });
});

describe('GET /api/v1/capabilities, the capability descriptor', () => {
  const fetchDescriptor = async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/capabilities' });
    expect(response.statusCode).toBe(200);
    return response.json() as {
      description: string;
      llms_txt: string;
      personalized: string;
      rungs: Array<{
        id: string;
        step: number;
        title: string;
        promise: string;
        capabilities: Array<{ id: string; maturity: string; endpoints: Row[]; title: string; for_you: string }>;
      }>;
    };
  };

  it("has the six rungs in step order 1 to 6 with the spec's rung ids and capability ids", async () => {
    const descriptor = await fetchDescriptor();
    expect(typeof descriptor.description).toBe('string');
    expect(descriptor.rungs.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(descriptor.rungs.map((r) => ({ step: r.step, id: r.id, capabilities: r.capabilities.map((c) => c.id) }))).toEqual(RUNGS);
    for (const rung of descriptor.rungs) {
      expect(typeof rung.title).toBe('string');
      expect(typeof rung.promise).toBe('string');
    }
  });

  it("gives every capability the spec's maturity", async () => {
    const descriptor = await fetchDescriptor();
    const maturities = Object.fromEntries(descriptor.rungs.flatMap((r) => r.capabilities.map((c) => [c.id, c.maturity])));
    expect(maturities).toEqual(MATURITIES);
    // The spec's exceptions, spelled out, so a misparse of the sentence cannot pass unnoticed.
    expect(maturities).toMatchObject({
      stable_value: 'testnet',
      tokens: 'preview',
      escrow: 'testnet',
      timelocked_refund: 'testnet',
      referral_covenant: 'preview',
      psbt: 'testnet',
      ledger: 'live',
      wallet_api: 'live',
    });
  });

  it('gives each endpoint entry exactly the keys path, auth, method and role, each matching a row of the service descriptor', async () => {
    const descriptor = await fetchDescriptor();
    const serviceRows = ((await gateway.app.inject({ method: 'GET', url: '/api/v1' })).json().endpoints as Row[]).map(rowKey);
    for (const capability of descriptor.rungs.flatMap((r) => r.capabilities)) {
      expect(typeof capability.title).toBe('string');
      expect(typeof capability.for_you).toBe('string');
      expect(Array.isArray(capability.endpoints)).toBe(true);
      for (const entry of capability.endpoints) {
        expect(Object.keys(entry).sort()).toEqual(['auth', 'method', 'path', 'role']);
        expect(serviceRows).toContain(rowKey(entry));
      }
    }
  });

  it('lists every spec endpoint but the four service-information ones under exactly one capability', async () => {
    const descriptor = await fetchDescriptor();
    const listed = descriptor.rungs.flatMap((r) => r.capabilities.flatMap((c) => c.endpoints.map(rowKey)));
    const serviceInfo = new Set(SERVICE_INFO_ROWS.map(rowKey));
    expect(serviceInfo.size).toBe(4);
    const wrong = SPEC_ROWS.filter((row) => !serviceInfo.has(rowKey(row)))
      .map((row) => ({ row: rowKey(row), times: listed.filter((l) => l === rowKey(row)).length }))
      .filter((entry) => entry.times !== 1);
    expect(wrong).toEqual([]);
  });

  it('gives the capabilities the spec says have "No API endpoint" no endpoint of the spec, only the catalog\'s extra rows', async () => {
    const descriptor = await fetchDescriptor();
    const capabilities = new Map(descriptor.rungs.flatMap((r) => r.capabilities.map((c) => [c.id, c] as const)));
    const extra = new Set(ENDPOINTS.filter((e) => e.extra).map(rowKey));
    for (const id of WITHOUT_ENDPOINTS) {
      const endpoints = (capabilities.get(id)?.endpoints ?? []).map(rowKey);
      expect({ id, endpoints: endpoints.filter((row) => !extra.has(row)) }).toEqual({ id, endpoints: [] });
    }
    // Receipts, reports, pay links, the site builder, tokens, escrow, time-locked refunds, referral covenants and jointly signed
    // transactions are extras under the spec's capabilities of those names; the rest have no endpoint at all.
    expect(WITHOUT_ENDPOINTS.filter((id) => (capabilities.get(id)?.endpoints.length ?? 0) > 0)).toEqual([
      'receipts',
      'reports',
      'pay_links',
      'site_builder',
      'tokens',
      'escrow',
      'timelocked_refund',
      'referral_covenant',
      'psbt',
    ]);
  });

  it('puts the endpoints the spec assigns to a capability under it (ledger, webhooks, stablecoin at testnet)', async () => {
    const descriptor = await fetchDescriptor();
    const capabilityOf = (method: string, path: string) =>
      descriptor.rungs.flatMap((r) => r.capabilities).find((c) => c.endpoints.some((e) => e.method === method && e.path === path));
    expect(capabilityOf('GET', '/api/v1/orgs/:handle/ledger')?.id).toBe('ledger');
    for (const webhook of SPEC_ROWS.bySection.get('4.2') ?? [])
      expect(capabilityOf(webhook.method, webhook.path)?.id).toBe('cards_and_wallets');
    const stablecoin = SPEC_ROWS.filter((r) => r.path.startsWith('/api/v1/stablecoin/'));
    expect(stablecoin).toHaveLength(3);
    for (const row of stablecoin) expect(capabilityOf(row.method, row.path)?.maturity).toBe('testnet');
  });

  it('points llms_txt at a plain-text guide that mentions every spec path', async () => {
    const descriptor = await fetchDescriptor();
    expect(descriptor.llms_txt.startsWith('/')).toBe(true);
    const guide = await gateway.app.inject({ method: 'GET', url: descriptor.llms_txt });
    expect(guide.statusCode).toBe(200);
    expect(guide.headers['content-type']).toMatch(/^text\/plain/);
    const missing = [...new Set(SPEC_ROWS.map((r) => r.path))].filter((path) => !guide.body.includes(path));
    expect(missing).toEqual([]);
  });

  it('names the personalised endpoint /api/v1/orgs/:handle/capabilities', async () => {
    const descriptor = await fetchDescriptor();
    expect(descriptor.personalized).toContain('/api/v1/orgs/:handle/capabilities');
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('has a path and an operation for every catalog endpoint', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, unknown>>;
    const missing = ENDPOINTS.filter((endpoint) => {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)$/, '{$1}');
      return !paths[path]?.[endpoint.method.toLowerCase()];
    }).map((e) => `${e.method} ${e.path}`);
    expect(missing).toEqual([]);
  });
});

describe('every route of the spec', () => {
  it('exists: none of the 83 answers 404 route_not_found', async () => {
    const missing: string[] = [];
    for (const row of SPEC_ROWS) {
      const response = await gateway.app.inject({
        method: row.method as 'GET',
        url: concreteUrl(row.path, 'some-shop'),
        ...(['POST', 'PUT', 'PATCH'].includes(row.method) ? { payload: {} } : {}),
      });
      if (response.statusCode === 404 && response.json().error?.code === 'route_not_found') missing.push(`${row.method} ${row.path}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers 404 route_not_found for a path the spec does not have', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('route_not_found');
  });
});
