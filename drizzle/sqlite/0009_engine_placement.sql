ALTER TABLE `clusters` ADD `engine_placement` text DEFAULT 'login_node' NOT NULL;--> statement-breakpoint
ALTER TABLE `clusters` ADD `engine_job_options` text DEFAULT '[]' NOT NULL;