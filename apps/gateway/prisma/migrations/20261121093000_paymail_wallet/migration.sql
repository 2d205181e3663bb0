-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "avatar_url" TEXT,
ADD COLUMN     "identity_public_key" TEXT,
ADD COLUMN     "wallet_xpub" TEXT;
