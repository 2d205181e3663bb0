import canonicalize from 'canonicalize';

/** How deep an opaque value may nest: hours are a few levels; anything deeper is not hours. */
const MAX_DEPTH = 16;

/**
 * Why a value passed through the feed unread (hours, opening hours) is unfit, or null when it is fit:
 * plain JSON only (no non-finite number, no NUL or lone surrogate in a string or key), at most
 * {@link MAX_DEPTH} levels, and at most `maxBytes` of canonical JSON.
 */
export function opaqueJsonProblem(value: unknown, maxBytes: number): string | null {
  let budget = maxBytes; // every node costs at least one byte of JSON: stop walking once the budget is spent
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let at = pending.pop(); at; at = pending.pop()) {
    if ((budget -= 1) < 0) return `must be at most ${maxBytes} bytes of JSON`;
    const inner = at.value;
    if (inner === null || typeof inner === 'boolean') continue;
    if (typeof inner === 'number') {
      if (!Number.isFinite(inner)) return 'must hold only finite numbers';
      continue;
    }
    if (typeof inner === 'string') {
      if (inner.includes('\u0000') || /\p{Cs}/u.test(inner)) return 'must not hold a NUL character or a lone surrogate';
      budget -= inner.length;
      continue;
    }
    if (typeof inner !== 'object' || !isPlain(inner)) return 'must be plain JSON';
    if (at.depth >= MAX_DEPTH) return `must nest at most ${MAX_DEPTH} levels`;
    for (const [key, child] of Object.entries(inner)) {
      if (key.includes('\u0000') || /\p{Cs}/u.test(key)) return 'must not hold a NUL character or a lone surrogate';
      budget -= key.length;
      pending.push({ value: child, depth: at.depth + 1 });
    }
  }
  const json = canonicalize(value) ?? '';
  if (new TextEncoder().encode(json).length > maxBytes) return `must be at most ${maxBytes} bytes of JSON`;
  return null;
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
