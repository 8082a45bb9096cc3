-- Issue 32.6: why the calling hours moved a queued call's scheduled_at (outside_hours, friday_prayer, weekend, holiday).
ALTER TABLE calls ADD COLUMN schedule_reason text;
