CREATE TABLE "throttle_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "ledger_accounts_wallet_idx";--> statement-breakpoint
DROP INDEX "ledger_accounts_system_idx";--> statement-breakpoint
DROP INDEX "ledger_transfers_stream_idx";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_wallet_shard_idx" ON "ledger_accounts" USING btree ("user_id","currency","shard") WHERE "ledger_accounts"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_system_shard_idx" ON "ledger_accounts" USING btree ("system","currency","shard") WHERE "ledger_accounts"."system" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transfers_stream_tipper_idx" ON "ledger_transfers" USING btree ("stream_id","from_user_id") WHERE "ledger_transfers"."kind" = 'tip';--> statement-breakpoint
CREATE INDEX "ledger_transfers_stream_tips_idx" ON "ledger_transfers" USING btree ("stream_id","created_at","id") WHERE "ledger_transfers"."kind" = 'tip';--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_shard_range" CHECK ("ledger_accounts"."shard" >= 0 and "ledger_accounts"."shard" < 64);