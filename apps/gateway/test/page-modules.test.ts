import { describe, expect, it } from 'vitest';
import { cardErrorText, prepaidStatusText, readCardInput, stampsText } from '../pages/card-text.js';
import { addItem, addKeypadLine, changeQuantity, emptyCart, orderRequest } from '../pages/cart.js';
import { cartQuoter } from '../pages/cart-quote.js';
import { formatMoney, formatPercent, minorToDecimal, parseMoney, parsePercent } from '../pages/money.js';
import { RECEIPT_WIDTH, receiptText } from '../pages/receipt.js';
import { intentStatusText, settleRefusalText, tokenAmountText } from '../pages/stablecoin-text.js';

// The counter screen's modules are plain browser ES modules; the ones without the DOM run here too.

const latte = {
  id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
  name: 'Oat milk latte',
  price_cents: 575,
  currency: 'USD',
  modifiers: [
    { id: '4a9c2e7f-6b1d-4e3a-8f5c-0d7b2a9e4c18', name: 'Large', price_cents: 75, group: 'Size' },
    { id: 'e5b1d8a3-9f2c-4a6e-b7d0-3c8f1a5e2b47', name: 'Extra shot', price_cents: 90, group: null },
  ],
};

describe('money on the pages: integers of minor units, typed amounts read as text', () => {
  it.each([
    ['4.5', 'USD', 450],
    ['4,50', 'USD', 450],
    ['0.1', 'USD', 10],
    ['12', 'USD', 1200],
    ['1200', 'JPY', 1200],
    ['999999999999.99', 'USD', 99999999999999],
  ])('%s %s is %d minor units', (text, currency, minor) => {
    expect(parseMoney(text, currency)).toBe(minor);
  });

  it.each([['4.505'], ['-1'], ['1e3'], ['0x10'], [''], ['4.5.0'], ['12.5 JPY'], ['\u00004']])('"%s" is not an amount', (text) => {
    expect(parseMoney(text, 'USD')).toBeNull();
  });

  it('yen have no decimals', () => {
    expect(parseMoney('12.5', 'JPY')).toBeNull();
  });

  it('builds the decimal from the integer, so large amounts keep every digit', () => {
    expect(minorToDecimal(12345678901234567n, 2)).toBe('123456789012345.67');
    expect(minorToDecimal(-5, 2)).toBe('-0.05');
    expect(formatMoney(123456789012345, 'USD').replace(/[^\d.]/g, '')).toBe('1234567890123.45');
  });

  it('reads percents to basis points, at most 100%', () => {
    expect(parsePercent('12.5')).toBe(1250);
    expect(parsePercent('100')).toBe(10_000);
    expect(parsePercent('100.01')).toBeNull();
    expect(parsePercent('12.345')).toBeNull();
  });

  it.each([
    [1000, '10%'],
    [1250, '12.5%'],
    [505, '5.05%'],
    [1, '0.01%'],
    [10_000, '100%'],
  ])('labels a tip choice of %i basis points "%s", in integers', (basisPoints, label) => {
    expect(formatPercent(basisPoints)).toBe(label);
  });
});

describe('the cart', () => {
  it('asks pos for the order as CreateOrderRequest says: items with modifier ids, a keypad line, a discount and a tip', () => {
    const cart = emptyCart();
    addItem(cart, latte, [latte.modifiers[0]!]);
    addItem(cart, latte, [latte.modifiers[0]!]);
    addKeypadLine(cart, 'Corkage', 500);
    cart.discount = { basisPoints: 1000 };
    cart.tip = { minor: 200 };
    cart.note = ' table 4 ';
    expect(orderRequest(cart, 'blue-bottle-cafe')).toEqual({
      org_handle: 'blue-bottle-cafe',
      lines: [
        { item_id: latte.id, quantity: 2, modifiers: [{ modifier_id: latte.modifiers[0]!.id }] },
        { name: 'Corkage', unit_price_minor: 500, quantity: 1 },
      ],
      discount_basis_points: 1000,
      tip_minor: 200,
      note: 'table 4',
    });
  });

  it("is priced by pos, not by the page: of quotes asked as the cart changes, only the latest request's answer is shown", async () => {
    const answers: Array<(quote: object) => void> = [];
    const shown: object[] = [];
    let pending = 0;
    const quoter = cartQuoter({
      send: () => new Promise((resolve) => answers.push(resolve)),
      onQuote: (quote) => shown.push(quote),
      onError: () => {},
      onPending: () => (pending += 1),
      delayMs: 0,
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    quoter.request({ lines: [1] });
    await tick();
    quoter.request({ lines: [1, 2] });
    // The same cart again asks nothing more.
    quoter.request({ lines: [1, 2] });
    await tick();
    expect(answers).toHaveLength(2);
    expect(pending).toBe(2);
    // The newer cart's answer arrives first; the older one, late, is dropped.
    answers[1]!({ total_minor: 2 });
    answers[0]!({ total_minor: 1 });
    await tick();
    expect(shown).toEqual([{ total_minor: 2 }]);
  });

  it('a busy service is asked again before the problem is shown; a refused cart is asked again at its next change', async () => {
    const outcomes: Array<{ status: number } | { total_minor: number }> = [
      { status: 503 },
      { status: 0 },
      { total_minor: 7 },
      { status: 422 },
    ];
    let asked = 0;
    const shown: unknown[] = [];
    const problems: unknown[] = [];
    const quoter = cartQuoter({
      send: async () => {
        const outcome = outcomes[asked++]!;
        if ('status' in outcome) throw outcome;
        return outcome;
      },
      onQuote: (quote) => shown.push(quote),
      onError: (error) => problems.push(error),
      onPending: () => {},
      delayMs: 0,
      retryDelaysMs: [1, 1, 1],
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    quoter.request({ lines: [1] });
    await tick();
    // 503, then no answer, then the price: the counter shows it and no problem.
    expect(asked).toBe(3);
    expect(shown).toEqual([{ total_minor: 7 }]);
    expect(problems).toEqual([]);
    // A refusal (4xx) is shown at once, not asked again by itself.
    quoter.request({ lines: [1, 2] });
    await tick();
    expect(asked).toBe(4);
    expect(problems).toEqual([{ status: 422 }]);
    // The same cart again, after its failure, is asked again.
    outcomes.push({ total_minor: 9 });
    quoter.request({ lines: [1, 2] });
    await tick();
    expect(asked).toBe(5);
    expect(shown).toEqual([{ total_minor: 7 }, { total_minor: 9 }]);
  });

  it('other choices are another line, and a line at quantity 0 leaves the cart', () => {
    const cart = emptyCart();
    addItem(cart, latte, []);
    addItem(cart, latte, [latte.modifiers[1]!]);
    expect(cart.lines.map((line: { quantity: number }) => line.quantity)).toEqual([1, 1]);
    changeQuantity(cart, cart.lines[0]!.key, -1);
    expect(cart.lines).toHaveLength(1);
  });
});

describe('the receipt text', () => {
  const order = {
    order_number: '7KQ2M9XB4T',
    status: 'paid',
    currency: 'USD',
    merchant_handle: 'blue-bottle-cafe',
    receipt_merchant: 'blue-bottle-cafe@pay.example.com',
    note: 'Table 4',
    lines: [
      {
        name: 'Oat milk latte with a name far too long for one line of a thermal printer',
        quantity: 2,
        unit_price_minor: 650,
        modifiers: [{ name: 'Large', price_minor: 75 }],
      },
    ],
    subtotal_minor: 1300,
    discount_minor: 130,
    tax_minor: 97,
    tax_jurisdiction: 'US-CA',
    prices_include_tax: false,
    tip_minor: 175,
    total_minor: 1442,
    paid_satoshis: 36050,
    payments: [{ txid: 'f'.repeat(64) }],
    flags: [],
    created_at: '2026-03-02T09:30:00.000Z',
    paid_at: '2026-03-02T09:31:00.000Z',
  };

  it('is 42 columns at most, with every figure of the order', () => {
    const text = receiptText(order, { merchantName: 'Blue Bottle Cafe', tipBasisPoints: 1500 });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(RECEIPT_WIDTH);
    expect(text).toContain('  + Large');
    expect(lines.find((line) => line.startsWith('Discount'))).toMatch(/-\$1\.30$/);
    expect(lines.find((line) => line.startsWith('Tax'))).toMatch(/\$0\.97$/);
    expect(lines.find((line) => line.startsWith('Tip (15%)'))).toMatch(/\$1\.75$/);
    expect(lines.find((line) => line.startsWith('TOTAL'))).toMatch(/\$14\.42$/);
    expect(lines.find((line) => line.startsWith('Paid in BSV'))).toMatch(/36,050 sat$/);
    expect(lines.join('')).toContain('f'.repeat(64));
  });

  it("names the shop by its name and its paymail, not by the receipt's on-chain identifier; none without a paymail", () => {
    const named = receiptText({ ...order, merchant_name: 'Blue Bottle Cafe', merchant_paymail: 'cafe@pay.example.com' }).split('\n');
    expect(named.slice(0, 2).map((line) => line.trim())).toEqual(['Blue Bottle Cafe', 'cafe@pay.example.com']);
    expect(named.join('\n')).not.toContain('blue-bottle-cafe@');
    const counter = receiptText(order, { merchantName: 'Blue Bottle Cafe', merchantPaymail: null }).split('\n');
    expect(counter.slice(0, 2).map((line) => line.trim())).toEqual(['Blue Bottle Cafe', '']);
    expect(counter.join('\n')).not.toMatch(/[\w-]+@[\w.-]+/);
  });

  it('says what a gift card paid, and the satoshis only when money paid a part', () => {
    const byCard = receiptText({ ...order, card_paid_minor: 1442, paid_satoshis: 0, payments: [] })
      .trimEnd()
      .split('\n');
    expect(byCard.find((line) => line.startsWith('Paid by gift card'))).toMatch(/\$14\.42$/);
    expect(byCard.some((line) => line.startsWith('Paid in BSV'))).toBe(false);
    const inPart = receiptText({ ...order, card_paid_minor: 1000, paid_satoshis: 11050 })
      .trimEnd()
      .split('\n');
    expect(inPart.find((line) => line.startsWith('Paid by gift card'))).toMatch(/\$10\.00$/);
    expect(inPart.find((line) => line.startsWith('Paid in BSV'))).toMatch(/11,050 sat$/);
  });

  it('names the stablecoin and its transfer for an order paid in it, and no satoshis', () => {
    const lines = receiptText(
      { ...order, status: 'paid_elsewhere', paid_elsewhere_by: 'stablecoin', paid_satoshis: 0, payments: [] },
      { stablecoin: { symbol: 'USDX', amount: '14.42 USDX', txid: 'a'.repeat(64) } },
    )
      .trimEnd()
      .split('\n');
    expect(lines.find((line) => line.startsWith('Paid in USDX'))).toMatch(/14\.42 USDX$/);
    expect(lines.join('')).toContain('a'.repeat(64));
    expect(lines.some((line) => line.startsWith('Paid in BSV'))).toBe(false);
    expect(lines.find((line) => line.startsWith('Status'))).toMatch(/PAID$/);
  });
});

describe('a stablecoin payment intent in words', () => {
  const payment = { symbol: 'USDX', decimals: 5, token_amount: '1250000', address: 'mxyz', token_id: 'ab_0', cosigner_public_key: '02' };

  it.each([
    ['1250000', 5, '12.50 USDX'],
    ['100000', 5, '1.00 USDX'],
    ['1', 5, '0.00001 USDX'],
    ['123456789012345', 5, '1,234,567,890.12345 USDX'],
    ['1250', 2, '12.50 USDX'],
    ['7', 0, '7 USDX'],
  ])('%s units of a %d-decimal token read %s', (units, decimals, text) => {
    expect(tokenAmountText({ ...payment, token_amount: units, decimals })).toBe(text);
  });

  it('says where the intent stands', () => {
    expect(['requires_payment', 'succeeded', 'expired', 'canceled'].map((status) => intentStatusText({ status, payment }))).toEqual([
      'Waiting for the USDX transfer',
      'Paid in USDX',
      'Expired: nothing was paid',
      'Cancelled: nothing was paid',
    ]);
  });

  it("says settle's refusals in words a customer acts on; one it does not know keeps the service's message", () => {
    const intent = { status: 'requires_payment', payment };
    const said = (code: string, details = {}) => settleRefusalText({ code, message: `the service's ${code}`, details }, intent);
    expect(said('payment_underpaid')).toBe(
      "That transfer sent less than 12.50 USDX to this payment's address. Send the whole amount in one transfer.",
    );
    expect(said('stablecoin_wrong_token')).toContain('another token, not USDX');
    expect(said('payment_wrong_output')).toContain("to this payment's address");
    expect(said('stablecoin_not_approved')).toContain('cosigner did not approve');
    expect(said('payment_expired')).toContain('expired before the transfer arrived');
    expect(said('txid_already_used')).toContain('already paid for something else');
    expect(said('failed_precondition', { reason: 'refund_due' })).toContain('kept for the shop to refund');
    expect(said('something_new')).toBe("the service's something_new");
    for (const code of ['payment_underpaid', 'stablecoin_wrong_token', 'payment_wrong_output', 'stablecoin_not_approved'])
      expect(said(code)).not.toMatch(/_/);
  });
});

describe('cards at the counter: what was scanned, and what is said about a card', () => {
  it.each([
    ['7K3M-9QX2-HC4T-W8ZD', '7K3M-9QX2-HC4T-W8ZD'],
    ['7k3m 9qx2 hc4t w8zd', '7K3M-9QX2-HC4T-W8ZD'],
    ['7K3M9QX2HC4TW8ZD', '7K3M-9QX2-HC4T-W8ZD'],
    // Crockford base32 reads I and L as 1, O as 0, as pos does.
    ['lKIM-9QX2-HC4T-W8ZO', '1K1M-9QX2-HC4T-W8Z0'],
  ])('reads "%s" as the identifier %s', (text, identifier) => {
    expect(readCardInput(text)).toEqual({ kind: 'identifier', identifier });
  });

  it("reads an address, a wallet's bitcoin: URI and a compressed public key; anything else is unknown", () => {
    expect(readCardInput(' mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn ')).toEqual({
      kind: 'address',
      address: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
    });
    expect(readCardInput('bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?sv&amount=0.1')).toEqual({
      kind: 'address',
      address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    });
    const key = '02B4632D08485FF1DF2DB55B9DAFD23347D1C47A457072A1E87BE26896549A8737';
    expect(readCardInput(key)).toEqual({ kind: 'public_key', publicKey: key.toLowerCase() });
    // U is not Crockford; 15 characters are not an identifier; 0, O, I and l are not base58.
    for (const text of ['7K3M-9QX2-HC4T-W8ZU', '7K3M-9QX2-HC4T-W8Z', '', 'hello', '1BoatSLRHtKNngkdXEeobR76b53LETtpy0'])
      expect(readCardInput(text), text).toEqual({ kind: 'unknown' });
  });

  it('says how many stamps a loyalty card has and what they pay for', () => {
    const card = { stamps: 7, stamps_for_reward: 10, rewards_available: 0, reward: 'A free coffee' };
    expect(stampsText(card)).toBe('7 of 10 stamps: 3 more for A free coffee');
    expect(stampsText({ ...card, stamps: 10, rewards_available: 1 })).toBe(
      '1 reward available (A free coffee); 0 of 10 stamps toward the next',
    );
    expect(stampsText({ ...card, stamps: 21, rewards_available: 2 })).toBe(
      '2 rewards available (A free coffee); 1 of 10 stamps toward the next',
    );
  });

  it('says why a card was refused in words a clerk acts on, the balance in money', () => {
    const error = (code: string, details: Record<string, unknown> = {}, message = 'from the API') =>
      Object.assign(new Error(message), { code, details });
    expect(cardErrorText(error('insufficient_balance', { balance_minor: '1850' }), 'USD')).toBe(
      'The gift card holds only $18.50: enter a smaller amount, or leave it empty to take what it holds.',
    );
    expect(cardErrorText(error('insufficient_balance', { balance_minor: '0' }), 'USD')).toBe(
      'The gift card is empty: take the rest another way.',
    );
    expect(cardErrorText(error('card_not_active', { status: 'pending' }), 'USD')).toMatch(/not active yet/);
    expect(cardErrorText(error('card_not_active', { status: 'void' }), 'USD')).toMatch(/void/);
    expect(cardErrorText(error('validation_failed', { field: 'amount_minor' }), 'USD')).toMatch(/more than the order still needs/);
    expect(cardErrorText(error('failed_precondition', {}, 'Order 7Q2M9K4X1C is paid'), 'USD')).toBe('Order 7Q2M9K4X1C is paid');
    expect(prepaidStatusText({ status: 'pending' })).toMatch(/not paid/);
  });
});

describe("the counter's ticket check-in text", () => {
  it('says who is admitted, and refuses a second entry, an unknown code and a code that is none', async () => {
    const { checkInText } = await import('../pages/ticket-check-in.js');
    const { ApiError } = await import('../pages/api.js');
    expect(checkInText({ code: 'K7QM2X9D4RTV8W1HZP3C', event_name: 'Jazz night', ticket_type_name: 'Standing' })).toEqual({
      ok: true,
      text: 'Admitted: Jazz night, Standing (K7QM2X9D4RTV8W1HZP3C)',
    });
    const again = checkInText(new ApiError(409, 'already_checked_in', 'checked in', { checked_in_at: '2026-06-12T19:04:12.000Z' }));
    expect(again.ok).toBe(false);
    expect(again.text).toMatch(/^Already checked in \(at .+\): do not admit again\.$/);
    expect(checkInText(new ApiError(404, 'not_found', 'No ticket'))).toEqual({ ok: false, text: 'No ticket of this shop has this code.' });
    expect(checkInText(new ApiError(422, 'validation_failed', 'bad')).text).toMatch(/not a ticket code/);
  });
});
