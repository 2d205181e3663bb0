/** The open sign's domain: opening hours in a shop's time zone, what the sign says now, and how it is published. */
export { checkHours, HOURS_LIMITS } from './check-hours.js';
export type { Hours, OpeningPeriod, SignOverride, SpecialDay, SpecialPeriod, Weekday } from './hours.js';
export { WEEKDAYS } from './hours.js';
export { openingHoursSpecification, type OpeningHoursSpecification } from './opening-hours-specification.js';
export { signBadge } from './sign-badge.js';
export { LOOK_AHEAD_DAYS, LOOK_BACK_DAYS, signState, type SignState } from './sign-state.js';
