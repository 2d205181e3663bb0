-- Each payment-gate key keeps the name it was made with. The keys made before are named as their account was.
ALTER TABLE "paygate_keys" ADD COLUMN "name" TEXT NOT NULL DEFAULT 'API key';
UPDATE "paygate_keys" SET "name" = "paygate_accounts"."name" FROM "paygate_accounts" WHERE "paygate_accounts"."id" = "paygate_keys"."account_id";
