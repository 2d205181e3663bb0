-- Decision 0050: a prepaid card use's draw waits for its transaction's commit. The use inserts its draw here; a
-- deferred trigger takes it off the card as the transaction commits (the balance drawn with a conditional update
-- that never goes below zero, of a card still active under the identifier presented, and the `redeem` activity
-- appended), raising CTK01 when the card no longer allows it, so that the whole use rolls back. The card's row is
-- locked from there to the end of the commit, inside PostgreSQL: no round trip to the app holds it.
CREATE TABLE "prepaid_card_draws" (
    "id" UUID NOT NULL,
    "card_id" UUID NOT NULL,
    "identifier_hash" TEXT NOT NULL,
    "order_id" UUID NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "tip_minor" BIGINT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "prepaid_card_draws_pkey" PRIMARY KEY ("id")
);

-- The migration runner cuts scripts at every semicolon, so the body spells its own as \073 in an E'' string.
CREATE FUNCTION "prepaid_card_draw"() RETURNS trigger LANGUAGE plpgsql
    AS E'BEGIN
  WITH drawn AS (
    UPDATE prepaid_cards SET balance_minor = balance_minor - NEW.amount_minor,
      status = CASE WHEN balance_minor = NEW.amount_minor THEN ''empty'' ELSE ''active'' END,
      last_sequence = last_sequence + 1, updated_at = NEW.occurred_at
    WHERE id = NEW.card_id AND status = ''active'' AND balance_minor >= NEW.amount_minor
      AND identifier_hash = NEW.identifier_hash
    RETURNING id, balance_minor, last_sequence)
  INSERT INTO prepaid_card_activities
    (id, card_id, sequence, kind, amount_minor, balance_after_minor, tax_minor, tip_minor, order_id, occurred_at)
  SELECT NEW.id, id, last_sequence, ''redeem'', -NEW.amount_minor, balance_minor, NEW.tax_minor, NEW.tip_minor,
    NEW.order_id, NEW.occurred_at
  FROM drawn\073
  IF NOT FOUND THEN
    RAISE EXCEPTION ''the card no longer allows this use'' USING ERRCODE = ''CTK01''\073
  END IF\073
  DELETE FROM prepaid_card_draws WHERE id = NEW.id\073
  RETURN NULL\073
END\073';

CREATE CONSTRAINT TRIGGER "prepaid_card_draw"
    AFTER INSERT ON "prepaid_card_draws"
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "prepaid_card_draw"();
