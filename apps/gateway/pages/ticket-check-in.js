// The counter screen's "Check in a ticket" field (docs/decisions/0020-tickets.md): staff scan or type a
// ticket's code at the door; the ticket admits once. The text of each answer is checkInText's, so that it
// can be tested without the DOM.

import { api, ApiError } from './api.js';

/** What staff see for an answer of POST /api/v1/orgs/:handle/tickets/check-in (the ticket, or the error). */
export function checkInText(result) {
  if (!(result instanceof ApiError))
    return { ok: true, text: `Admitted: ${result.event_name}, ${result.ticket_type_name} (${result.code})` };
  switch (result.code) {
    case 'already_checked_in': {
      const at = result.details?.checked_in_at ? new Date(result.details.checked_in_at).toLocaleTimeString() : 'earlier';
      return { ok: false, text: `Already checked in (at ${at}): do not admit again.` };
    }
    case 'not_found':
      return { ok: false, text: 'No ticket of this shop has this code.' };
    case 'validation_failed':
      return { ok: false, text: 'That is not a ticket code: 20 letters and digits.' };
    default:
      return { ok: false, text: result.message };
  }
}

/** Wires the form: `org()` is the organisation chosen on the counter screen. */
export function ticketCheckIn({ org, $ }) {
  const input = $('ticket-code');
  const result = $('ticket-result');
  $('ticket-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const code = input.value.replace(/[\s-]/g, '');
    if (!code || !org()) return;
    let answer;
    try {
      answer = await api('POST', `/api/v1/orgs/${encodeURIComponent(org().handle)}/tickets/check-in`, { body: { code } });
    } catch (error) {
      answer = error instanceof ApiError ? error : new ApiError(0, 'unknown', String(error));
    }
    const { ok, text } = checkInText(answer);
    result.textContent = text;
    result.className = ok ? 'ticket-result ok' : 'ticket-result error';
    result.hidden = false;
    if (ok) input.value = '';
    input.focus();
  });
  return {
    reset() {
      input.value = '';
      result.hidden = true;
      result.textContent = '';
    },
  };
}
