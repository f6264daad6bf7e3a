ALTER TABLE "meeting_invitees" ADD COLUMN "fees_paid" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "meeting_invitees" ADD COLUMN "seen_at" timestamp with time zone;