/**
 * SQL for a crowd participation's time limit, over a study `s` and a participant `p`: the moment it ends
 * (null without a limit), counted from the participant's first visit, and whether it has passed.
 */
export const CROWD_DEADLINE = `(p.created_at + make_interval(mins => (s.crowd->>'timeLimitMinutes')::int))`;
export const CROWD_TIMED_OUT = `coalesce(now() >= ${CROWD_DEADLINE}, false)`;
