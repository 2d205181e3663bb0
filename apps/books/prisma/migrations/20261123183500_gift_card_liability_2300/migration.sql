-- Decision 0017: 2300 is "Gift card liability" and 2200 "Loyalty liability" (the chart had them the other
-- way round). Each organisation's two account rows swap codes, by hand since no schema changes: an account
-- keeps its name, its id and any line posted to it (none had been: pos emitted no prepaid event before
-- this), so a gift card liability posted under the old code would stay one under the new. Only rows still
-- as the old chart named them move, and a third code stands in while the two change places.
UPDATE "accounts" SET "code" = '2300-moving' WHERE "code" = '2200' AND "name" = 'Gift card liability';
UPDATE "accounts" SET "code" = '2200' WHERE "code" = '2300' AND "name" = 'Loyalty liability';
UPDATE "accounts" SET "code" = '2300' WHERE "code" = '2300-moving';
