-- Decision 0052: a receiving child of an xpub is taken in one statement. The rules of decision 0022 (the gap
-- window past the highest paid child, the staff reserve, the per-client bound, a paymail destination sharing its
-- client's child) run here, in the function's own statements: the xpub's counter row locked first, the holds read
-- after the lock (each statement of a volatile function reads what committed before it), and a child taken. No
-- round trip to p2p holds the counter's lock: in a statement of its own, the function's commit releases it.
--
-- Called with the organisation's wallet row (a NULL or empty xpub takes nothing and answers NULLs). Answers the
-- child taken (`taken`), or why none was (`refusal`: 'client' past the client's own bound,
-- 'anonymous' past what anonymous opens may hold, 'window' with every child held for staff's orders), with how
-- many holds stood in the way and when the earliest of them ends: p2p writes the refusal's message.
--
-- The migration runner cuts scripts at every semicolon, so the body spells its own as \073 in an E'' string.
CREATE FUNCTION "allocate_derivation_index"(
    p_org UUID, p_xpub TEXT, p_gap_limit INT, p_staff_reserved INT, p_per_client INT, p_hold_until TIMESTAMP(3),
    p_purpose TEXT, p_anonymous BOOLEAN, p_client TEXT, p_now TIMESTAMP(3),
    OUT taken INT, OUT refusal TEXT, OUT held INT, OUT earliest TIMESTAMP(3))
  LANGUAGE plpgsql
  AS E'DECLARE
  counter_next INT\073
  paid INT\073
  all_held INT\073
  all_earliest TIMESTAMP(3)\073
  anonymous_held INT\073
  anonymous_earliest TIMESTAMP(3)\073
  own_held INT\073
  own_earliest TIMESTAMP(3)\073
  own_full BOOLEAN\073
BEGIN
  -- A wallet without an xpub (its single receiving address, or nothing): no child to take.
  IF p_xpub IS NULL OR p_xpub = '''' THEN
    RETURN\073
  END IF\073

  -- The upsert takes the row lock: everything below runs one call at a time per xpub.
  INSERT INTO derivation_counters (organization_id, xpub, next_index, highest_paid_index, updated_at)
    VALUES (p_org, p_xpub, 0, -1, now())
    ON CONFLICT (organization_id, xpub) DO UPDATE SET updated_at = now()
    RETURNING next_index, highest_paid_index INTO counter_next, paid\073

  -- The holds of the window still running: all, the anonymous ones, and the client''s own.
  IF p_anonymous THEN
    SELECT COUNT(*)::int, MIN(held_until),
        COUNT(*) FILTER (WHERE anonymous)::int, MIN(held_until) FILTER (WHERE anonymous),
        COUNT(*) FILTER (WHERE anonymous AND client = p_client)::int,
        MIN(held_until) FILTER (WHERE anonymous AND client = p_client)
      INTO all_held, all_earliest, anonymous_held, anonymous_earliest, own_held, own_earliest
      FROM derived_addresses
      WHERE organization_id = p_org AND xpub = p_xpub AND derivation_index > paid AND held_until > p_now\073
    own_full := p_client <> '''' AND own_held >= p_per_client\073
  END IF\073

  IF p_anonymous AND (own_full OR anonymous_held >= GREATEST(1, p_gap_limit - p_staff_reserved)) THEN
    IF own_full THEN
      refusal := ''client''\073 held := own_held\073 earliest := own_earliest\073
    ELSE
      refusal := ''anonymous''\073 held := anonymous_held\073 earliest := anonymous_earliest\073
    END IF\073
  ELSIF counter_next <= paid + p_gap_limit THEN
    -- A fresh child.
    UPDATE derivation_counters SET next_index = next_index + 1
      WHERE organization_id = p_org AND xpub = p_xpub
      RETURNING next_index - 1 INTO taken\073
    INSERT INTO derived_addresses (organization_id, xpub, derivation_index, held_until, purpose, anonymous, client)
      VALUES (p_org, p_xpub, taken, p_hold_until, p_purpose, p_anonymous, p_client)\073
    RETURN\073
  ELSE
    -- The child of the window free longest (its hold ended first): nothing will settle a payment to it any more,
    -- and one released early, whose payer may still pay it late, is taken last.
    UPDATE derived_addresses SET held_until = p_hold_until, purpose = p_purpose, anonymous = p_anonymous, client = p_client
      WHERE (organization_id, xpub, derivation_index) = (
        SELECT organization_id, xpub, derivation_index FROM derived_addresses
        WHERE organization_id = p_org AND xpub = p_xpub AND derivation_index > paid
          AND derivation_index <= paid + p_gap_limit AND held_until <= p_now
        ORDER BY held_until, derivation_index LIMIT 1)
      RETURNING derivation_index INTO taken\073
    IF taken IS NOT NULL THEN
      RETURN\073
    END IF\073
    IF NOT p_anonymous THEN
      SELECT COUNT(*)::int, MIN(held_until) INTO all_held, all_earliest
        FROM derived_addresses
        WHERE organization_id = p_org AND xpub = p_xpub AND derivation_index > paid AND held_until > p_now\073
    END IF\073
    -- Staff''s orders hold the rest of the window: an anonymous caller waits for the earliest hold of any.
    refusal := CASE WHEN p_anonymous THEN ''anonymous'' ELSE ''window'' END\073
    held := CASE WHEN p_anonymous THEN anonymous_held ELSE all_held END\073
    earliest := all_earliest\073
  END IF\073

  -- Refused: a paymail destination of a known client shares the child that client holds for paymail the
  -- longest, held on until the later of the two ends (a paymail destination is told apart by its reference).
  IF p_client <> '''' AND p_purpose = ''paymail'' THEN
    UPDATE derived_addresses SET held_until = GREATEST(held_until, p_hold_until)
      WHERE (organization_id, xpub, derivation_index) = (
        SELECT organization_id, xpub, derivation_index FROM derived_addresses
        WHERE organization_id = p_org AND xpub = p_xpub AND derivation_index > paid AND held_until > p_now
          AND anonymous AND client = p_client AND purpose = p_purpose
        ORDER BY held_until DESC, derivation_index DESC LIMIT 1)
      RETURNING derivation_index INTO taken\073
    IF taken IS NOT NULL THEN
      refusal := NULL\073 held := NULL\073 earliest := NULL\073
    END IF\073
  END IF\073
END\073';
