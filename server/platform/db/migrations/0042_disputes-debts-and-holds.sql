CREATE TABLE "ledger_holds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"reference" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_system_funded";--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_holds_reference_idx" ON "ledger_holds" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "ledger_holds_open_idx" ON "ledger_holds" USING btree ("user_id") WHERE "ledger_holds"."released_at" is null;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_debt_not_credit" CHECK ("ledger_accounts"."system" is null or "ledger_accounts"."system" not like 'debt:%' or "ledger_accounts"."balance" <= 0);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_funded" CHECK ("ledger_accounts"."system" is null or "ledger_accounts"."system" in ('mint', 'card-payments', 'invoices') or "ledger_accounts"."system" like 'debt:%' or "ledger_accounts"."balance" >= 0) NOT VALID;