/**
 * The bounds of an order, which pos owns and checks on every order it prices. They live here rather than in
 * pos because commerce applies the line bounds to a checkout before its lines reach pos: it checks each line
 * against the shop's catalog first, and names its own fields (`modifier_ids`), so its refusal must come from
 * the same numbers. Services share code only through this package and the proto.
 */
export const ORDER_LIMITS = {
  /** Lines in one order. */
  lines: 100,
  /** Units of one line. */
  quantity: 10_000,
  /** Modifiers chosen on one line. */
  modifiersPerLine: 20,
  /** A discount or tip in basis points: at most 10,000 (100%). */
  basisPoints: 10_000,
} as const;
