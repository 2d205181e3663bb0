import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireOrg } from '../auth/authenticate.js';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { limitField } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';
import { queryValue } from './text-fields.js';

/** The reports as the API answers them: books.proto's views, each echoing the query it answers. */
const view = (name: string) => messageDesc(`ctk.books.v1.${name}`);
const sales = view('SalesReport');
const topItems = view('TopItemsReport');
const busyHours = view('BusyHoursReport');
const trialBalance = view('TrialBalanceReport');
const accountBalances = view('AccountBalancesReport');

/**
 * Local calendar dates in `time_zone` (UTC by default), both included. Shape only: books owns the range's
 * rules (the dates, the time zone, `from` not after `to`, how many days a report spans, the period) and
 * names the field it refuses. The defaults are those books applies, for the echo. An unknown parameter
 * is a 422, as a misspelt one would otherwise go unnoticed.
 */
const timeZone = queryValue.default('UTC').describe('An IANA time zone name, such as Europe/London or America/New_York');
const range = {
  from: queryValue.optional().describe('The first local date, YYYY-MM-DD (required)'),
  to: queryValue.optional().describe('The last local date, YYYY-MM-DD (required)'),
  time_zone: timeZone,
};
const salesQuery = z.object({ ...range, period: queryValue.default('day').describe('day or month') }).strict();
const topItemsQuery = z.object({ ...range, limit: limitField.default(10) }).strict();
const busyHoursQuery = z.object(range).strict();
/** The end of `at` (today in the time zone by default). */
const balancesQuery = z.object({ at: queryValue.optional().describe('A local date, YYYY-MM-DD'), time_zone: timeZone }).strict();

type Range = { from?: string | undefined; to?: string | undefined; time_zone: string };

/**
 * Reports from the organisation's journal, computed by the books service: sales by local day or month,
 * top items, busy hours, the trial balance and account balances. By hand: the answer echoes the query
 * beside books' rows.
 */
export function reportRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const books = deps.services.books;
  const org = (request: FastifyRequest) => ({ org: orgRef(requireOrg(request)) });
  const echo = ({ from = '', to = '', time_zone }: Range) => ({ from, to, timeZone: time_zone });

  const balances = async (request: FastifyRequest, query: { at?: string | undefined; time_zone: string }) =>
    books.getTrialBalance({ ...org(request), at: query.at ?? '', timeZone: query.time_zone }, callOptions(request));

  return {
    'GET /api/v1/orgs/:handle/reports/sales': route({
      params: orgParams,
      query: salesQuery,
      answer: messageSchema(sales, 'answer'),
      handle: async ({ query, request }) => {
        const { rows } = await books.getSalesReport({ ...org(request), ...echo(query), period: query.period }, callOptions(request));
        return toJson(sales, { ...echo(query), period: query.period, data: rows });
      },
    }),
    'GET /api/v1/orgs/:handle/reports/top-items': route({
      params: orgParams,
      query: topItemsQuery,
      answer: messageSchema(topItems, 'answer'),
      handle: async ({ query, request }) => {
        const { items } = await books.getTopItems({ ...org(request), ...echo(query), limit: query.limit }, callOptions(request));
        return toJson(topItems, { ...echo(query), limit: query.limit, data: items });
      },
    }),
    'GET /api/v1/orgs/:handle/reports/busy-hours': route({
      params: orgParams,
      query: busyHoursQuery,
      answer: messageSchema(busyHours, 'answer'),
      handle: async ({ query, request }) => {
        const { hours } = await books.getBusyHours({ ...org(request), ...echo(query) }, callOptions(request));
        return toJson(busyHours, { ...echo(query), data: hours });
      },
    }),
    'GET /api/v1/orgs/:handle/reports/trial-balance': route({
      params: orgParams,
      query: balancesQuery,
      answer: messageSchema(trialBalance, 'answer'),
      handle: async ({ query, request }) => {
        const response = await balances(request, query);
        // Each account's balance in the debit or the credit column: AccountBalance's *_balance_minor.
        const data = response.balances.map((balance) => ({
          ...balance,
          accounts: balance.accounts.map((a) => ({ ...a, debitMinor: a.debitBalanceMinor, creditMinor: a.creditBalanceMinor })),
        }));
        return toJson(trialBalance, { ...response, timeZone: query.time_zone, data });
      },
    }),
    'GET /api/v1/orgs/:handle/reports/account-balances': route({
      params: orgParams,
      query: balancesQuery,
      answer: messageSchema(accountBalances, 'answer'),
      handle: async ({ query, request }) => {
        const response = await balances(request, query);
        return toJson(accountBalances, { ...response, timeZone: query.time_zone, data: response.balances });
      },
    }),
  };
}
