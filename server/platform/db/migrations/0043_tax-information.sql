CREATE TABLE "tax_information" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"entity_type" text NOT NULL,
	"country" text NOT NULL,
	"tax_id_sealed" text NOT NULL,
	"tax_id_last4" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"region" text,
	"postal_code" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_information_sealed_shape" CHECK ("tax_information"."tax_id_sealed" like 'v1.%')
);
--> statement-breakpoint
ALTER TABLE "tax_information" ADD CONSTRAINT "tax_information_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;