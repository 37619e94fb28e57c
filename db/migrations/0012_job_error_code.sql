-- Job error codes (issue 33, item 1): why a job failed, beside its message; /api/v1 maps it to a status.
ALTER TABLE `jobs` ADD `error_code` text;