import { AppError } from '@ctk/shared';
import { z } from 'zod';

/** `POST /api/v1/402/check`'s answer (the contract's "HTTP routes"). */
const checkAnswerSchema = z.object({
  outcome: z.enum(['free', 'payment_required', 'paid']),
  status: z.number().int().min(200).max(599),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.unknown().optional(),
  refusal: z.object({ code: z.string(), message: z.string() }).nullish(),
  credential: z.object({ token: z.string(), calls: z.number().int().positive().nullish(), expires_at: z.string() }).nullish(),
});
export type CheckAnswer = z.infer<typeof checkAnswerSchema>;

export type CheckRequest = { method: string; url: string; headers: Record<string, string>; payee_key?: string };

/**
 * Asks the gate about a request that carries no credential this process accepts: only the payment
 * headers go, with the paygate key. Any failure (unreachable, timed out, an answer other than 200 with a
 * check answer) is an `unavailable` AppError: the caller never lets an unpaid request through on it.
 */
export async function askGate(checkUrl: string, key: string, timeoutMs: number, request: CheckRequest): Promise<CheckAnswer> {
  let response: Response;
  try {
    response = await fetch(checkUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new AppError('unavailable', `The payment gate at ${new URL(checkUrl).host} is unreachable (${cause}).`);
  }
  const text = await response.text().catch(() => '');
  if (response.status !== 200)
    throw new AppError('unavailable', `The payment gate answered ${response.status} to the check${gateMessage(text)}.`, {
      status: response.status,
    });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('unavailable', 'The payment gate answered the check with something other than JSON.');
  }
  const parsed = checkAnswerSchema.safeParse(json);
  if (!parsed.success)
    throw new AppError('unavailable', `The payment gate's check answer is not one of the contract (${parsed.error.issues[0]?.message}).`);
  return parsed.data;
}

/** The gate's own error message, for the operator's log (a refused key, a rate limit). */
function gateMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? `: ${message.slice(0, 200).replace(/\.$/, '')}` : '';
  } catch {
    return '';
  }
}
