import { CONFIG_EVENTS } from './dependency/events.ts';
import { RELEASE_EVENTS } from './dependency/release.ts';
import { DIRECTORY_EVENTS } from './peer/events.ts';

/** The event catalogue: every domain event a service of this system publishes (config-svc's, release-svc's, peer-svc's). */
export const EVENT_CATALOGUE = [...CONFIG_EVENTS, ...RELEASE_EVENTS, ...DIRECTORY_EVENTS] as const;
