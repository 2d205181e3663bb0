import { RUNGS, SERVICE_DESCRIPTION } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey, type Endpoint } from '../catalog/endpoints.js';
import { capabilityNote, endpointsOf } from './capability-descriptor.js';
import { AUTH_SCHEMES } from './service-descriptor.js';

/** A plain-text guide to the API for people and language models (llmstxt.org layout), from the catalog. */
export function llmsTxt(implemented: ReadonlySet<string>, baseUrl: string): string {
  const line = (e: Endpoint) =>
    `- ${e.method} ${e.path} (auth ${e.auth}${e.role ? `, role ${e.role}` : ''})${implemented.has(endpointKey(e)) ? '' : ' [501 not built yet]'}: ${e.summary}`;
  const out = [
    '# Commerce Toolkit API',
    '',
    `> ${SERVICE_DESCRIPTION}`,
    '',
    `Base URL: ${baseUrl}. JSON bodies use snake_case. Money is an integer in minor units (cents, satoshis).`,
    'Errors: {"error": {"code", "message", "request_id", "details"?}} with a stable code. Lists take limit and cursor and return {data, next_cursor}.',
    'POSTs that create something accept an Idempotency-Key header: a retry with the same body replays the first answer.',
    '',
    '## Start',
    `- POST ${baseUrl}/api/v1/onboard with {"name": "My Cafe"} and no key: returns your API key once.`,
    '- Send it as Authorization: Bearer <key>; GET /api/v1/me tells who you are.',
    '- GET /api/v1/capabilities maps everything; GET /api/v1/orgs/<handle>/capabilities says what to do next.',
    '',
    '## Auth schemes',
    ...Object.entries(AUTH_SCHEMES).map(([name, text]) => `- ${name}: ${text}`),
    '- Roles: owner > admin > staff, checked in the organisation the path names.',
    '',
    '## Service and access',
    ...ENDPOINTS.filter((e) => e.capability === null).map(line),
  ];
  for (const rung of RUNGS) {
    out.push('', `## Step ${rung.step}: ${rung.title}. ${rung.promise}`);
    for (const capability of rung.capabilities) {
      const endpoints = endpointsOf(capability);
      out.push(
        `### ${capability.title} (${capability.id}, ${capability.maturity})`,
        capability.forYou,
        ...[capabilityNote(capability, implemented)].filter((note) => note !== undefined),
        ...(endpoints.length ? endpoints.map(line) : ['- No API endpoint.']),
      );
    }
  }
  out.push('', '## Reference', '- OpenAPI: /api/v1/openapi.json', '- Docs page: /docs', '');
  return out.join('\n');
}
