CREATE TABLE `audit` (
	`id` text PRIMARY KEY NOT NULL,
	`time` text NOT NULL,
	`actor` text,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`result` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_time_idx` ON `audit` (`time`,`id`);--> statement-breakpoint
CREATE TABLE `pipeline_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`pipeline_id` text NOT NULL,
	`revision` integer NOT NULL,
	`toml_content` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`pipeline_id`) REFERENCES `pipelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pipeline_revisions_pipeline_revision_idx` ON `pipeline_revisions` (`pipeline_id`,`revision`);--> statement-breakpoint
CREATE TABLE `pipelines` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`version` text,
	`description` text,
	`tags` text NOT NULL,
	`toml_content` text NOT NULL,
	`visibility` text NOT NULL,
	`owner` text NOT NULL,
	`forked_from` text,
	`rules_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "pipelines_visibility_check" CHECK("pipelines"."visibility" in ('private', 'workspace', 'link'))
);
--> statement-breakpoint
CREATE INDEX `pipelines_updated_idx` ON `pipelines` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `pipelines_owner_idx` ON `pipelines` (`owner`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`pipeline_id` text,
	`pipeline_revision` integer,
	`workflow_name` text NOT NULL,
	`owner` text NOT NULL,
	`target` text NOT NULL,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	`exit_code` integer,
	`counts` text NOT NULL,
	`retry_of` text,
	`workspace` text,
	`pid` integer,
	`events_path` text,
	`error` text,
	CONSTRAINT "runs_status_check" CHECK("runs"."status" in ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `runs_created_idx` ON `runs` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `runs_status_created_idx` ON `runs` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `shares` (
	`token` text PRIMARY KEY NOT NULL,
	`pipeline_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	FOREIGN KEY (`pipeline_id`) REFERENCES `pipelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shares_pipeline_idx` ON `shares` (`pipeline_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`tags` text NOT NULL,
	`toml_content` text NOT NULL,
	`created_at` text NOT NULL
);
