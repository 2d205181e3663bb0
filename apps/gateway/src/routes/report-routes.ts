import type { FastifyRequest } from 'fastify';
import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { balancesQuery, busyHoursQuery, reportParams, salesQuery, topItemsQuery } from '../reports/report-input.js';
import { accountBalancesView, busyHourView, salesRowView, topItemView, trialBalanceView } from '../reports/report-views.js';
import { accountBalancesReport, busyHoursReport, salesReport, topItemsReport, trialBalanceReport } from '../reports/report-answers.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * Reports from the organisation's journal, computed by the books service: sales by local day or month,
 * top items, busy hours, the trial balance and account balances. Each echoes the query it answers.
 */
export function reportRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const books = deps.services.books;
  const org = (request: FastifyRequest) => ({ org: orgRef(requireOrg(request)) });
  const range = (query: { from: string; to: string; time_zone: string }) => ({ from: query.from, to: query.to, timeZone: query.time_zone });

  const trialBalance = async (request: FastifyRequest, query: { at?: string | undefined; time_zone: string }) => {
    const response = await books.getTrialBalance({ ...org(request), at: query.at ?? '', timeZone: query.time_zone }, callOptions(request));
    return { echo: { at: response.at, time_zone: query.time_zone, ends_before: response.endsBefore }, balances: response.balances };
  };

  return {
    'GET /api/v1/orgs/:handle/reports/sales': route({
      params: reportParams,
      query: salesQuery,
      answer: salesReport,
      handle: async ({ query, request }) => {
        const { rows } = await books.getSalesReport({ ...org(request), ...range(query), period: query.period }, callOptions(request));
        return { ...query, data: rows.map(salesRowView) };
      },
    }),
    'GET /api/v1/orgs/:handle/reports/top-items': route({
      params: reportParams,
      query: topItemsQuery,
      answer: topItemsReport,
      handle: async ({ query, request }) => {
        const { items } = await books.getTopItems({ ...org(request), ...range(query), limit: query.limit }, callOptions(request));
        return { ...query, data: items.map(topItemView) };
      },
    }),
    'GET /api/v1/orgs/:handle/reports/busy-hours': route({
      params: reportParams,
      query: busyHoursQuery,
      answer: busyHoursReport,
      handle: async ({ query, request }) => {
        const { hours } = await books.getBusyHours({ ...org(request), ...range(query) }, callOptions(request));
        return { ...query, data: hours.map(busyHourView) };
      },
    }),
    'GET /api/v1/orgs/:handle/reports/trial-balance': route({
      params: reportParams,
      query: balancesQuery,
      answer: trialBalanceReport,
      handle: async ({ query, request }) => {
        const { echo, balances } = await trialBalance(request, query);
        return { ...echo, data: balances.map(trialBalanceView) };
      },
    }),
    'GET /api/v1/orgs/:handle/reports/account-balances': route({
      params: reportParams,
      query: balancesQuery,
      answer: accountBalancesReport,
      handle: async ({ query, request }) => {
        const { echo, balances } = await trialBalance(request, query);
        return { ...echo, data: balances.map(accountBalancesView) };
      },
    }),
  };
}
