import { BigNumber, ECDSA, Hash, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import canonicalize from 'canonicalize';
import { checkUrl, expectJson, requestJson } from '../http.js';
import { report } from '../io.js';
import type { CommandContext } from './context.js';

type Feed = { about?: { 'ctk:publicKey'?: string }; proof?: Array<{ proofPurpose?: string }>; [member: string]: unknown };

/**
 * Signs a shop's published feed as its merchant (docs/decisions/0034-federation.md): reads the feed at its
 * URL, works out its digest itself (sha256 of the RFC 8785 canonical JSON of the feed without `proof`), signs
 * it with the wallet's identity key when that is the key the feed names, and submits the feed with both
 * proofs to the instance it came from.
 */
export async function signFeed({ io, options, wallet }: CommandContext): Promise<void> {
  const [address] = options.args;
  if (!address) throw new AppError('bad_request', 'Give the feed URL: ctk-wallet sign-feed http://localhost:8080/api/v1/feeds/<handle>.');
  const url = checkUrl(address, options.insecureHttp, 'feed');
  const { document } = expectJson(await requestJson(url, 'feed'), 'feed') as { document?: Feed };
  if (!document || typeof document !== 'object') throw new AppError('failed_precondition', `${url} answered no feed document.`);
  const opened = wallet();
  if (document.about?.['ctk:publicKey'] !== opened.publicKey)
    throw new AppError(
      'failed_precondition',
      `The feed names the identity key ${document.about?.['ctk:publicKey'] ?? '(none)'}, not this wallet's ${opened.publicKey}: register this wallet's public key as the organisation's identity_public_key and publish again.`,
    );
  const { proof = [], ...signed } = document;
  const digest = Utils.toHex(Hash.sha256(Utils.toArray(canonicalize(signed) ?? '', 'utf8')));
  const signature = ECDSA.sign(new BigNumber(digest, 16), opened.key, true).toDER('hex') as string;
  const merchantProof = {
    type: 'ctk:EcdsaSecp256k1Jcs',
    proofPurpose: 'ctk:merchant',
    publicKey: opened.publicKey,
    created: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    digest,
    signature,
  };
  const feed = { ...signed, proof: [...proof.filter((p) => p.proofPurpose !== 'ctk:merchant'), merchantProof] };
  const answer = expectJson(await requestJson(new URL('/api/v1/feeds', url), 'instance', { method: 'POST', body: { feed } }), 'instance');
  report(io, options.json, { digest, signature, feed: answer }, [`Signed the feed's digest ${digest} as its merchant.`]);
}
