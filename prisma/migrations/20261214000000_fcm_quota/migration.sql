-- A bot's FCM quota (messages a minute for its Firebase project); null = the push service's PUSH_FCM_QUOTA_PER_MINUTE.
ALTER TABLE "push_configs" ADD COLUMN "fcm_quota_per_minute" INTEGER;
