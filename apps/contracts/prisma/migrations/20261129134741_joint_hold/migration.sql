-- Decision 0039: a joint transaction a contract keeps once signed, to broadcast when its time comes. Made with ctk-prisma-migration.
-- AlterTable
ALTER TABLE "joint_transactions" ADD COLUMN     "hold_broadcast" BOOLEAN NOT NULL DEFAULT false;
