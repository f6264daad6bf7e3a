CREATE TABLE "chat_timeouts" (
	"owner_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_timeouts_owner_id_user_id_pk" PRIMARY KEY("owner_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "platform_chat_filter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"words" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_moderators" (
	"owner_id" bigint NOT NULL,
	"moderator_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_moderators_owner_id_moderator_id_pk" PRIMARY KEY("owner_id","moderator_id")
);
--> statement-breakpoint
DROP INDEX "chat_messages_history_idx";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "status" text DEFAULT 'shown' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_rules" ADD COLUMN "filter_action" text DEFAULT 'refuse' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_timeouts" ADD CONSTRAINT "chat_timeouts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_timeouts" ADD CONSTRAINT "chat_timeouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_moderators" ADD CONSTRAINT "channel_moderators_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_moderators" ADD CONSTRAINT "channel_moderators_moderator_id_users_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_moderators_moderator_idx" ON "channel_moderators" USING btree ("moderator_id");--> statement-breakpoint
CREATE INDEX "chat_messages_history_idx" ON "chat_messages" USING btree ("stream_id","priority","id") WHERE "chat_messages"."type" = 'COMMENT' and "chat_messages"."status" = 'shown';