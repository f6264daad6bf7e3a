CREATE TABLE "message_unlocks" (
	"message_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"seller_id" bigint NOT NULL,
	"transfer_id" bigint NOT NULL,
	"price" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_unlocks_message_id_user_id_pk" PRIMARY KEY("message_id","user_id")
);
--> statement-breakpoint
DROP INDEX "ledger_transfers_earned_idx";--> statement-breakpoint
ALTER TABLE "post_media" ALTER COLUMN "post_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "direct_messages" ADD COLUMN "media_id" bigint;--> statement-breakpoint
ALTER TABLE "direct_messages" ADD COLUMN "price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_broadcasts" ADD COLUMN "media_id" bigint;--> statement-breakpoint
ALTER TABLE "message_broadcasts" ADD COLUMN "price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
UPDATE "post_media" SET "owner_id" = "posts"."user_id" FROM "posts" WHERE "posts"."id" = "post_media"."post_id";--> statement-breakpoint
ALTER TABLE "post_media" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "message_unlocks" ADD CONSTRAINT "message_unlocks_message_id_direct_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."direct_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_unlocks" ADD CONSTRAINT "message_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_unlocks" ADD CONSTRAINT "message_unlocks_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_unlocks_seller_idx" ON "message_unlocks" USING btree ("seller_id","created_at");--> statement-breakpoint
ALTER TABLE "direct_messages" ADD CONSTRAINT "direct_messages_media_id_post_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."post_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_broadcasts" ADD CONSTRAINT "message_broadcasts_media_id_post_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."post_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "direct_messages_media_idx" ON "direct_messages" USING btree ("media_id","recipient_id") WHERE "direct_messages"."media_id" is not null;--> statement-breakpoint
CREATE INDEX "post_media_owner_idx" ON "post_media" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "post_media_key_idx" ON "post_media" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_transfers_earned_idx" ON "ledger_transfers" USING btree ("to_user_id","created_at") WHERE kind in ('tip', 'subscription', 'post_purchase', 'meeting_fee', 'toy_tip', 'show_minute', 'message_unlock', 'ad_commission', 'referral_commission');--> statement-breakpoint
ALTER TABLE "direct_messages" ADD CONSTRAINT "direct_messages_price_range" CHECK ("direct_messages"."price" >= 0);