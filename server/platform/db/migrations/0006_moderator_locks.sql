ALTER TABLE "streams" ADD COLUMN "rating_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "audience_locked" boolean DEFAULT false NOT NULL;