import type { AppInstallationState } from '@switchyard/contracts';

/** An installation's state less its revision: what a webhook or the reconciliation says it is now. */
export type ObservedInstallation = Omit<AppInstallationState, 'revision'>;
