CREATE TABLE "chat_rules" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"slow_mode_seconds" integer DEFAULT 0 NOT NULL,
	"audience" text DEFAULT 'everyone' NOT NULL,
	"block_links" boolean DEFAULT false NOT NULL,
	"blocked_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_rules" ADD CONSTRAINT "chat_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;