import { signal } from '@preact/signals';

const STORE = 'ctk.session';

/**
 * Who is signed in on this tab: an API key, kept in sessionStorage (never localStorage), so it ends when the
 * tab closes, on sign-out, and when the API no longer accepts it (401).
 */
const key = signal<string | null>(sessionStorage.getItem(STORE));

export const session = {
  key: () => key.value,
  signedIn: () => key.value !== null,
  start(apiKey: string) {
    sessionStorage.setItem(STORE, apiKey);
    key.value = apiKey;
  },
  end() {
    sessionStorage.removeItem(STORE);
    key.value = null;
  },
};
