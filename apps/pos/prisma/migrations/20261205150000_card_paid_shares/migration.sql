-- Decision 0070: an order keeps the tax and tip its stored-value uses carried beside card_paid_minor, so that a use
-- reads what earlier uses took with the order rather than summing them (a sum that grew with every use).
ALTER TABLE "orders" ADD COLUMN "card_paid_tax_minor" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "card_paid_tip_minor" BIGINT NOT NULL DEFAULT 0;

-- The orders stored value paid part of: the prepaid cards' redeems no restore undid, and the credit uses not restored.
UPDATE "orders" o SET "card_paid_tax_minor" = s.tax, "card_paid_tip_minor" = s.tip
FROM (
  SELECT order_id, SUM(tax) AS tax, SUM(tip) AS tip FROM (
    SELECT a.order_id, a.tax_minor AS tax, a.tip_minor AS tip FROM "prepaid_card_activities" a
    WHERE a.kind = 'redeem' AND NOT EXISTS (SELECT 1 FROM "prepaid_card_activities" r WHERE r.restores_id = a.id)
    UNION ALL
    SELECT c.order_id, c.tax_minor, c.tip_minor FROM "order_credit_uses" c WHERE c.restored_at IS NULL
  ) uses GROUP BY order_id
) s
WHERE o.id = s.order_id AND o.card_paid_minor > 0;
