import { inputComplete, type JointInput, type JointOutput, type JointTransaction } from './joint-transactions.js';
import { addressOfKey, type ShopWallet } from './wallet-addresses.js';

/**
 * Who is who in a joint transaction, as the page names them: public keys, addresses and locking scripts the
 * page knows ("you" for the shop's wallet; an escrow's buyer and arbiter). Anyone else is named by their key
 * or address.
 */
export type Parties = { keys: Record<string, string>; addresses: Record<string, string>; scripts: Record<string, string> };

/** The shop's own wallet: its identity key and the addresses the page can tell are its (wallet-addresses.ts). */
export function shopParties(wallet: ShopWallet | null, joints: JointTransaction[]): Parties {
  const parties: Parties = { keys: {}, addresses: {}, scripts: {} };
  const key = wallet?.identity_public_key;
  const sample = joints.flatMap((joint) => [...joint.inputs, ...joint.outputs]).find((part) => part.address)?.address;
  if (key) parties.keys[key] = 'you';
  const address = key && sample ? addressOfKey(key, sample) : null;
  if (address) parties.addresses[address] = 'you';
  if (wallet?.receiving_address) parties.addresses[wallet.receiving_address] = 'you';
  return parties;
}

/**
 * A contract's parties (an escrow's, a time-locked refund's): its keys by name, each key's own address (where a
 * wallet keeps its coins) by the same name, then where a release pays ("you") and a refund ("the buyer"), and
 * its lock by `lockName`.
 */
export function contractParties(
  keys: Record<string, string>,
  contract: { release_address: string; refund_address: string; lock_script: string },
  lockName: string,
): Parties {
  const addresses: Record<string, string> = {};
  for (const [key, name] of Object.entries(keys)) {
    const address = addressOfKey(key, contract.release_address);
    if (address) addresses[address] = name;
  }
  addresses[contract.release_address] = 'you';
  addresses[contract.refund_address] = 'the buyer';
  return { keys, addresses, scripts: { [contract.lock_script]: lockName } };
}

/** A key by its party's name, else shortened: "you", "the buyer", "the key 03184ffa…14314b". */
export function keyName(parties: Parties, key: string): string {
  return parties.keys[key] ?? `the key ${key.slice(0, 8)}…${key.slice(-6)}`;
}

/** Whose signature a P2PKH input waits for: the party holding its address, else the wallet of that address. */
function addressOwner(parties: Parties, address: string | null | undefined): string {
  if (!address) return 'its key';
  return parties.addresses[address] ?? `the wallet of ${address}`;
}

/** Whom an output pays: a named party, else its address, else "a script". */
export function payee(parties: Parties, output: JointOutput): string {
  const named = parties.scripts[output.script] ?? (output.address ? parties.addresses[output.address] : undefined);
  if (named) return output.address ? `${named} (${output.address})` : named;
  return output.address ?? 'a script that is not an address';
}

/** Who may sign an input, in words: "the wallet of m…", "any 2 of the buyer, you, the arbiter", or "both the buyer and you". */
export function signers(parties: Parties, input: JointInput): string {
  if (input.kind === 'p2pkh') return addressOwner(parties, input.address);
  const names = input.public_keys.map((key) => keyName(parties, key));
  if (input.required >= names.length) return `${names.length === 2 ? 'both' : 'all of'} ${words(names, 'and')}`;
  return `any ${input.required} of ${names.join(', ')}`;
}

/** Who has signed an input so far, in words. */
export function signedText(parties: Parties, input: JointInput): string {
  if (input.signed_by.length === 0) return 'Not signed yet';
  // A P2PKH input has one signer, the wallet of its address: named when the page knows them.
  if (input.kind === 'p2pkh') return parties.keys[input.signed_by[0]!] ? `Signed by ${parties.keys[input.signed_by[0]!]}` : 'Signed';
  const names = words(
    input.signed_by.map((key) => keyName(parties, key)),
    'and',
  );
  return `Signed by ${names} (${input.signed_by.length} of ${input.required})`;
}

/** What the transaction still waits for, one phrase per input not yet complete. */
export function stillNeeded(parties: Parties, joint: JointTransaction): string[] {
  return joint.inputs.flatMap((input, index) => {
    if (inputComplete(input)) return [];
    if (input.kind === 'p2pkh') return [`input ${index + 1}: a signature from ${addressOwner(parties, input.address)}`];
    const more = input.required - input.signed_by.length;
    const unsigned = input.public_keys.filter((key) => !input.signed_by.includes(key)).map((key) => keyName(parties, key));
    return [`input ${index + 1}: ${more === 1 ? 'one more signature' : `${more} more signatures`}, from ${words(unsigned, 'or')}`];
  });
}

/** "a", "a and b", "a, b and c". */
export function words(items: string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
