-- AlterTable: the tip choices the counter offers, in basis points (a menu never saved has the default ones)
ALTER TABLE "menus" ADD COLUMN "tip_basis_points" INTEGER[] NOT NULL DEFAULT ARRAY[1000, 1500, 2000]::INTEGER[];

-- AddCheck (by hand: Prisma's schema has no CHECK constraints). pos validates first: this is the floor.
ALTER TABLE "menus" ADD CONSTRAINT "menus_tip_basis_points_check" CHECK (
    cardinality("tip_basis_points") <= 6
    AND 1 <= ALL ("tip_basis_points")
    AND 10000 >= ALL ("tip_basis_points")
);
