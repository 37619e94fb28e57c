ALTER TABLE `daily_usage` ADD `refunded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sessions from before the absolute lifetime: counted from their last 30-day renewal.
UPDATE `sessions` SET `created_at` = `expires_at` - 2592000000 WHERE `created_at` = 0;
