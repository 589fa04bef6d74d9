ALTER TABLE "audit" ADD COLUMN "action" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "audit" ADD COLUMN "ip" text;