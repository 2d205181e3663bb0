import { createRequire } from 'node:module';

/** The part of the `secp256k1` package (libsecp256k1 bindings) the fast script check and key derivation use. */
export type Secp256k1 = {
  /** `sig` is r and s, 32 bytes each; a high S never verifies (normalise first); throws on a key it cannot parse. */
  ecdsaVerify(sig: Uint8Array, msg32: Uint8Array, pubkey: Uint8Array): boolean;
  /** `pubkey` plus `tweak` times G; throws when the tweak is not below the curve's order or the sum is infinity. */
  publicKeyTweakAdd(pubkey: Uint8Array, tweak: Uint8Array, compressed: boolean): Uint8Array;
};

const require = createRequire(import.meta.url);
let loaded: { secp: Secp256k1 } | { error: string } | undefined;

/**
 * libsecp256k1 through the `secp256k1` package's native bindings, loaded on first use so that a service that
 * never checks a script or derives a key does not load them. The package's own entry point falls back to pure JavaScript
 * (elliptic) without a word when the binding cannot load; `bindings` fails instead, and the caller then
 * checks every script with @bsv/sdk's interpreter and says so (`scriptCheckEngine`).
 */
export function loadSecp256k1(): Secp256k1 | undefined {
  if (!loaded) {
    try {
      loaded = { secp: require('secp256k1/bindings') as Secp256k1 };
    } catch (error) {
      loaded = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return 'secp' in loaded ? loaded.secp : undefined;
}

/** Why the native bindings did not load, if they did not. */
export function secp256k1LoadError(): string | undefined {
  loadSecp256k1();
  return loaded && 'error' in loaded ? loaded.error : undefined;
}
