import { keyOf, type SignInKey } from './sign-in-key.js';

/**
 * Where this browser keeps its sign-in key: IndexedDB, never localStorage. The key is stored encrypted
 * (AES-GCM) under a wrapping key the browser made non-extractable: what is on disk is not the key, and no
 * script can read the wrapping key out to decrypt a copy elsewhere.
 */
const DB = 'ctk-back-office';
const STORE = 'sign-in';

type Kept = { wrapping: CryptoKey; iv: Uint8Array<ArrayBuffer>; sealed: ArrayBuffer; did: string };

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = act(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result as T);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/** The key this browser keeps, or null when it keeps none. */
export async function keptKey(): Promise<SignInKey | null> {
  const kept = await run<Kept | undefined>('readonly', (store) => store.get('key'));
  if (!kept) return null;
  const secretKey = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: kept.iv }, kept.wrapping, kept.sealed));
  return keyOf(secretKey);
}

/** Keeps the key in this browser, in place of any it kept. */
export async function keepKey(key: SignInKey): Promise<void> {
  const wrapping = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, wrapping, key.secretKey.slice());
  const kept: Kept = { wrapping, iv, sealed, did: key.did };
  await run('readwrite', (store) => store.put(kept, 'key'));
}

/** Forgets the key: this browser can no longer sign in with it (its backup still can). */
export async function forgetKey(): Promise<void> {
  await run('readwrite', (store) => store.delete('key'));
}
