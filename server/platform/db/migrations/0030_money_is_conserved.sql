CREATE TABLE "sign_in_addresses" (
	"user_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_addresses_user_id_ip_pk" PRIMARY KEY("user_id","ip")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_key" text;--> statement-breakpoint
-- Decision 0036: the addresses of the sessions still open are the history there is.
INSERT INTO "sign_in_addresses" ("user_id", "ip", "first_at", "last_at")
  SELECT "user_id", "ip", min("created_at"), max("last_seen_at") FROM "sessions" WHERE "ip" IS NOT NULL GROUP BY "user_id", "ip";--> statement-breakpoint
CREATE INDEX "sign_in_addresses_ip_idx" ON "sign_in_addresses" USING btree ("ip");--> statement-breakpoint
CREATE INDEX "payments_card_key_idx" ON "payments" USING btree ("card_key") WHERE "payments"."card_key" is not null;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_funded" CHECK ("ledger_accounts"."system" is null or "ledger_accounts"."system" in ('mint', 'card-payments', 'invoices') or "ledger_accounts"."balance" >= 0) NOT VALID;