ALTER TABLE "ad_activity" ADD COLUMN "presentation" text;--> statement-breakpoint
ALTER TABLE "ad_offers" ADD COLUMN "budget" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_offers" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ad_offers" ADD CONSTRAINT "ad_offers_budget" CHECK ("ad_offers"."budget" >= 0);--> statement-breakpoint
-- Activity counted before advertising was prepaid was never funded by anyone: it earns nothing.
UPDATE "ad_activity" SET "commission" = 0 WHERE "settled_at" IS NULL;
