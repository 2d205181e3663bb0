import type { GetLoyaltyPassResponse } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import type { GoogleWalletPassAnswer } from './wallet-pass-answers.js';

/** The .pkpass bytes pos answered. */
export function applePassView(pass: GetLoyaltyPassResponse): Buffer {
  if (pass.body.length === 0) throw new AppError('internal', 'pos answered an Apple pass without its file');
  return Buffer.from(pass.body);
}

export function googlePassView(pass: GetLoyaltyPassResponse): GoogleWalletPassAnswer {
  if (!pass.saveUrl || !pass.jwt) throw new AppError('internal', 'pos answered a Google pass without its save link');
  return { save_url: pass.saveUrl, jwt: pass.jwt };
}
