/** How a content rating is named where a person picks one (stream setup, a custom channel). */
import type { RATINGS } from '../api/streams';

export const RATING_LABEL: Record<(typeof RATINGS)[number], string> = { G: 'G (all ages)', PLUS_14: '14+', PLUS_18: '18+' };
