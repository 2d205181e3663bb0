-- A checkout refunded in full at its provider says so, and its seats go back on sale (decisions 0019, 0020).
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_status_check";
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_status_check" CHECK ("status" IN ('pending', 'paid', 'confirmed', 'expired', 'cancelled', 'refunded'));
ALTER TABLE "ticket_holds" DROP CONSTRAINT "ticket_holds_state_check";
ALTER TABLE "ticket_holds" ADD CONSTRAINT "ticket_holds_state_check" CHECK ("state" IN ('held', 'sold', 'released', 'unfulfilled', 'refunded'));
