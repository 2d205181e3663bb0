import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Logger } from '@ctk/shared';
import type { Config } from '../config.js';
import { applePassSigner } from './apple-pass-signer.js';
import { makeGoogleSaveLink } from './google-save-link.js';
import { googleWalletAccount } from './google-wallet-account.js';
import type { PassContent } from './pass-content.js';
import { passImages } from './pass-images.js';

/** Wallet passes of loyalty cards (docs/decisions/0017-customer-cards.md, "Wallet passes"). */
export type PassMaker = {
  /** The `.pkpass` (application/vnd.apple.pkpass). */
  apple(content: PassContent): Promise<Buffer>;
  /** The save link and its JWT. */
  google(content: PassContent): Promise<{ saveUrl: string; jwt: string }>;
  /** The public key the save links' JWTs verify with (the development key's, when none is configured). */
  googlePublicKey(): Promise<KeyObject>;
};

/**
 * Made once at start: the configuration's Apple certificates and Google service account are checked now
 * (a bad one stops pos, naming the variable), or development ones are made now in memory, and the pass
 * images read. The passes themselves are pure: the same content makes the same pass, bar signing times.
 */
export function createPassMaker(config: Config, logger: Logger): PassMaker {
  const signer = applePassSigner(config, logger);
  const account = googleWalletAccount(config, logger);
  const images = passImages();
  return {
    async apple(content) {
      // passkit-generator (and the joi schemas it builds as it loads) is loaded by the first pass, not at pos's start.
      const { makeApplePass } = await import('./apple-pass.js');
      return makeApplePass(await signer(), images, content);
    },
    async google(content) {
      return makeGoogleSaveLink(await account(), content);
    },
    async googlePublicKey() {
      return createPublicKey((await account()).privateKey);
    },
  };
}
