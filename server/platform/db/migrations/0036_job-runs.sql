CREATE TABLE "job_runs" (
	"job" text PRIMARY KEY NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"failures" bigint DEFAULT 0 NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_duration_ms" integer NOT NULL,
	"last_error" text,
	"last_failed_at" timestamp with time zone,
	"last_instance" text NOT NULL
);
