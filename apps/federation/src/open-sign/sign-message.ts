import type { SignState as SignMessage } from '@ctk/proto/ctk/federation/v1/federation';
import type { SignState } from './sign-state.js';

export function signMessage(state: SignState): SignMessage {
  return {
    open: state.open,
    since: state.since ?? undefined,
    until: state.until ?? undefined,
    nextChange: state.nextChange ?? undefined,
    reason: state.reason,
    note: state.note,
    timeZone: state.timeZone,
  };
}
