import { AppError } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import {
  ANALYZE_BODY_LIMIT,
  analyzeItemsBody,
  analyzeItemsExample,
  MAX_ANALYZE_IMAGE_BASE64,
  MAX_ANALYZE_IMAGE_BYTES,
  MAX_ANALYZE_TEXT,
} from '../items/analyze-input.js';
import { callOptions } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

/**
 * pos reads photos one at a time, each within its own time limit, with a few waiting (POS_OCR_TIMEOUT_MS,
 * POS_OCR_MAX_WAITING): the call waits for that queue rather than the usual 5 s.
 */
const PHOTO_CALL_TIMEOUT_MS = 70_000;
/** pos's AnalyzeItemsResponse as the API shows it (decision 0027). */
const ITEM_DRAFTS = messageDesc('ctk.pos.v1.ItemDrafts');

/** Item drafts from a merchant's text, CSV or menu photo (decision 0016), served by pos; open to anyone, at a strict rate per address. */
export function itemAnalyzeRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/items/analyze': route({
      body: analyzeItemsBody,
      bodyExample: analyzeItemsExample,
      bodyLimit: ANALYZE_BODY_LIMIT,
      rateLimitPerMinute: deps.config.CTK_ANALYZE_RATE_LIMIT_PER_MINUTE,
      answer: messageSchema(ITEM_DRAFTS, 'answer'),
      handle: async ({ body, request }) => {
        for (const field of ['text', 'csv'] as const) {
          const length = body[field]?.length ?? 0;
          if (length > MAX_ANALYZE_TEXT) {
            throw new AppError(
              'payload_too_large',
              `${field} is ${length} characters; at most ${MAX_ANALYZE_TEXT}. Send a long list in parts.`,
              {
                field,
              },
            );
          }
        }
        if ((body.image?.length ?? 0) > MAX_ANALYZE_IMAGE_BASE64) {
          throw new AppError(
            'payload_too_large',
            `image is over ${MAX_ANALYZE_IMAGE_BYTES} bytes; a JPEG of about 2,000 pixels a side is plenty.`,
            {
              field: 'image',
              max_bytes: MAX_ANALYZE_IMAGE_BYTES,
            },
          );
        }
        const response = await deps.services.pos.analyzeItems(
          {
            text: body.text ?? '',
            csv: body.csv ?? '',
            image: Buffer.from(body.image ?? '', 'base64'),
            currency: body.currency ?? '',
          },
          { ...callOptions(request), ...(body.image ? { timeoutMs: PHOTO_CALL_TIMEOUT_MS } : {}) },
        );
        return toJson(ITEM_DRAFTS, { ...response });
      },
    }),
  };
}
