import type { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { rpcRoute } from '../contract/rpc-route.js';
import { ANALYZE_BODY_LIMIT, analyzeItemsBody, refuseLongText } from '../items/analyze-input.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * pos reads photos one at a time, each within its own time limit, with a few waiting (POS_OCR_TIMEOUT_MS,
 * POS_OCR_MAX_WAITING): the call waits for that queue rather than the usual 5 s.
 */
const PHOTO_CALL_TIMEOUT_MS = 70_000;

/**
 * Item drafts from a merchant's text, CSV or menu photo (decision 0016), served by pos, which checks what it
 * reads (an input given, the image's size and type, the currency); open to anyone, at a strict rate per address.
 */
export function itemAnalyzeRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const declare = (timeoutMs?: number) =>
    rpcRoute(deps, {
      rpc: ['pos', 'analyzeItems'],
      body: true,
      // pos's AnalyzeItemsResponse as the API shows it (decision 0027).
      view: 'ctk.pos.v1.ItemDrafts',
      bodyLimit: ANALYZE_BODY_LIMIT,
      rateLimitPerMinute: deps.config.CTK_ANALYZE_RATE_LIMIT_PER_MINUTE,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  const [list, photo] = [declare(), declare(PHOTO_CALL_TIMEOUT_MS)];
  return {
    'POST /api/v1/items/analyze': {
      ...list,
      body: analyzeItemsBody(list.body as z.ZodObject),
      handle: (input) => {
        const body = input.body as { text?: string; csv?: string; image?: string };
        refuseLongText(body);
        return (body.image ? photo : list).handle(input);
      },
    },
  };
}
