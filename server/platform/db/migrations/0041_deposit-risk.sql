ALTER TABLE "payments" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "risk_score" integer;--> statement-breakpoint
CREATE INDEX "payments_client_address_idx" ON "payments" USING btree ("client_address","created_at") WHERE "payments"."client_address" is not null;