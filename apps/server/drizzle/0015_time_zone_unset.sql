-- 'UTC' was only the column's default, and the zone changed nothing until now, so it cannot be
-- told apart from a choice: every account starts with none (dates in the browser's zone).
ALTER TABLE "users" ALTER COLUMN "timezone" SET DEFAULT '';--> statement-breakpoint
UPDATE "users" SET "timezone" = '' WHERE "timezone" = 'UTC';
