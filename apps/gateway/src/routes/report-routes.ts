import { z } from 'zod';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { limitField } from './pagination.js';
import type { RouteDefinition } from './route-definition.js';
import { queryValue } from './text-fields.js';

/**
 * Local calendar dates in `time_zone` (UTC by default), both included. Shape only: books owns the range's
 * rules (the dates, the time zone, `from` not after `to`, how many days a report spans, the period), applies
 * the defaults and echoes them, and names the field it refuses. An unknown parameter is a 422, as a misspelt
 * one would otherwise go unnoticed.
 */
const timeZone = queryValue.optional().describe('An IANA time zone name, such as Europe/London or America/New_York; UTC by default');
const range = {
  from: queryValue.optional().describe('The first local date, YYYY-MM-DD (required)'),
  to: queryValue.optional().describe('The last local date, YYYY-MM-DD (required)'),
  time_zone: timeZone,
};
const salesQuery = z.object({ ...range, period: queryValue.optional().describe('day (the default) or month') }).strict();
const topItemsQuery = z.object({ ...range, limit: limitField.optional().describe('Items per currency, 10 by default') }).strict();
/** The end of `at` (today in the time zone by default). */
const balancesQuery = z.object({ at: queryValue.optional().describe('A local date, YYYY-MM-DD'), time_zone: timeZone }).strict();

/**
 * Reports from the organisation's journal, computed by the books service: sales by local day or month,
 * top items, busy hours, the trial balance and account balances. Each answers books.proto's view of it.
 */
export function reportRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const report = (rpc: 'getSalesReport' | 'getTopItems' | 'getBusyHours' | 'getTrialBalance', query: z.ZodType, view: string) =>
    rpcRoute(deps.services, { rpc: ['books', rpc], params: orgParams, query, view: `ctk.books.v1.${view}` });
  return {
    'GET /api/v1/orgs/:handle/reports/sales': report('getSalesReport', salesQuery, 'SalesReport'),
    'GET /api/v1/orgs/:handle/reports/top-items': report('getTopItems', topItemsQuery, 'TopItemsReport'),
    'GET /api/v1/orgs/:handle/reports/busy-hours': report('getBusyHours', z.object(range).strict(), 'BusyHoursReport'),
    'GET /api/v1/orgs/:handle/reports/trial-balance': report('getTrialBalance', balancesQuery, 'TrialBalanceReport'),
    'GET /api/v1/orgs/:handle/reports/account-balances': report('getTrialBalance', balancesQuery, 'AccountBalancesReport'),
  };
}
