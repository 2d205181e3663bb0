-- Emails are one address whatever their case, stored in lower case (decision 0011). Where two accounts
-- hold the same address in different cases, the oldest keeps it and the others lose it (they keep their
-- keys and organisations).
UPDATE "users" AS u SET "email" = NULL
WHERE u."email" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM "users" AS o
    WHERE lower(o."email") = lower(u."email") AND (o."created_at", o."id") < (u."created_at", u."id")
  );

UPDATE "users" SET "email" = lower("email") WHERE "email" IS NOT NULL AND "email" <> lower("email");
