import { makeBadge } from 'badge-maker';
import type { BadgeStatus } from './badge-status.policy.ts';

/** The badge's left-hand text, the subject badgen.net and shields.io gave Dependabot's badge (badgen `api/dependabot.ts`). */
export const BADGE_LABEL = 'Dependabot';

/**
 * The badge as an SVG document drawn by badge-maker (shields.io's renderer), `flat` style: {@link BADGE_LABEL} on grey,
 * then `status.status` on `status.colour`, the text escaped by badge-maker, with a `<title>` and an `aria-label`
 * `Dependabot: <status>` for screen readers. About 0.1 ms a badge, so it is drawn for each answer.
 */
export function badgeSvg(status: BadgeStatus): string {
  return makeBadge({ label: BADGE_LABEL, message: status.status, color: status.colour, style: 'flat' });
}

/** The badge as the original's JSON answer, `{"status":"…","colour":"…"}`: what badgen.net and shields.io read. */
export function badgeJson(status: BadgeStatus): string {
  return JSON.stringify({ status: status.status, colour: status.colour });
}
