import { MAX_TOKEN_AMOUNT } from '@ctk/chain';
import { lineOfText } from '@ctk/shared';
import { z } from 'zod';

export const TOKEN_KINDS = ['membership', 'credits', 'community'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * A symbol as wallets show it: 1 to 16 characters, none of them a space, a control or format character (a NUL,
 * a bidirectional override) or unassigned. Letters of any script are fine ("CAFÉ"): BSV-21's `sym` is UTF-8.
 */
const SYMBOL = /^[^\p{C}\p{Z}\s]{1,16}$/u;

/** The most decimals a mint may have: 8, as satoshis have, which every wallet shows well (1Sat allows up to 18). */
export const MAX_MINT_DECIMALS = 8;

/** The most a credit unit may be worth: an order takes at most 10^12 minor units, and a unit is less than a whole order. */
export const MAX_UNIT_VALUE_MINOR = 100_000_000n;

/**
 * What a merchant asks to mint (POST /api/v1/orgs/:handle/tokens), checked here, its owner. Credits carry their
 * face value (decision 0036, "Credits in the books"): what a unit is worth, in a currency; other kinds none.
 */
export const mintInputSchema = z
  .object({
    symbol: z.string().regex(SYMBOL, 'symbol must be 1 to 16 printable characters without spaces, such as "BREW"'),
    name: lineOfText('name', 100).pipe(z.string().min(1, 'name must not be empty')),
    kind: z.enum(TOKEN_KINDS, { error: `kind must be one of ${TOKEN_KINDS.join(', ')}` }),
    decimals: z
      .number()
      .int('decimals must be a whole number')
      .min(0, 'decimals must be at least 0')
      .max(MAX_MINT_DECIMALS, `decimals must be at most ${MAX_MINT_DECIMALS}`)
      .default(0),
    supply: z
      .bigint({ error: 'supply must be a whole number of units' })
      .min(1n, 'supply must be at least 1 unit')
      .max(MAX_TOKEN_AMOUNT, `supply must be at most ${MAX_TOKEN_AMOUNT} units (2^63 - 1)`),
    unitValueMinor: z
      .bigint({ error: 'unit_value_minor must be a whole number of minor units' })
      .min(1n, 'unit_value_minor must be at least 1 (minor units of the currency)')
      .max(MAX_UNIT_VALUE_MINOR, `unit_value_minor must be at most ${MAX_UNIT_VALUE_MINOR}`)
      .optional(),
    currency: z.union([z.literal(''), z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD')]).default(''),
    createdBy: z.string().max(100).default(''),
  })
  .superRefine((mint, ctx) => {
    const credits = mint.kind === 'credits';
    if (credits && mint.unitValueMinor === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['unitValueMinor'],
        message: 'credits need unit_value_minor: what one unit is worth (100 with 0 decimals: one credit is 1.00)',
      });
    if (credits && !mint.currency)
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: 'credits need currency: the ISO 4217 code of their face value, such as USD',
      });
    if (!credits && mint.unitValueMinor !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['unitValueMinor'],
        message: `a ${mint.kind} token has no face value: unit_value_minor is for credits only`,
      });
    if (!credits && mint.currency)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: `a ${mint.kind} token has no face value: currency is for credits only` });
  });

export type MintInput = z.output<typeof mintInputSchema>;
