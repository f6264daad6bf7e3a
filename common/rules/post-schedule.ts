/** Scheduled posts (decision 0087): a post may be scheduled this many days ahead at most. */
export const POST_SCHEDULE_MAX_DAYS = 90;
