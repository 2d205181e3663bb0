import { readFile } from 'node:fs/promises';
import { AppError } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { createOcrReader } from '../src/analyze/ocr-reader.js';

const menu = () => readFile(new URL('./fixtures/menu.png', import.meta.url));
const codeOf = (error: unknown) => (AppError.is(error) ? error.code : String(error));

describe('the OCR reader', () => {
  it('abandons a recognition past its time, and the next photo gets a new worker', async () => {
    const image = await menu();
    const hasty = createOcrReader({ timeoutMs: 1, maxWaiting: 1 });
    try {
      expect(await hasty.read(image).catch(codeOf)).toBe('timeout');
    } finally {
      await hasty.close();
    }
    const patient = createOcrReader({ timeoutMs: 60_000, maxWaiting: 1 });
    try {
      expect(await patient.read(image)).toContain('Flat white $4.50');
    } finally {
      await patient.close();
    }
  });

  it('drops a waiting photo whose caller left, and refuses photos once closed', async () => {
    const image = await menu();
    const reader = createOcrReader({ timeoutMs: 60_000, maxWaiting: 2 });
    const first = reader.read(image);
    const leaving = new AbortController();
    const second = reader.read(image, leaving.signal).catch(codeOf);
    leaving.abort();
    expect(await second).toBe('unavailable');
    expect(await first).toContain('Croissant $3.25');
    const waiting = [reader.read(image).catch(codeOf), reader.read(image).catch(codeOf)];
    await reader.close();
    // The photo being read when pos closed ends with its worker; the one waiting is refused.
    expect(await Promise.all(waiting)).toEqual(['unavailable', 'unavailable']);
    expect(await reader.read(image).catch(codeOf)).toBe('unavailable');
  });
});
