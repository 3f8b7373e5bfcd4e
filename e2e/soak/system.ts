import type { SimulatedClock } from './clock.ts';

/**
 * What the soak runs against: the one-process launcher (`launcher-system.ts`) or the compose stack
 * (`compose-system.ts`). Both hold a GitHub emulator, a registry emulator and the gateway; both keep their world across
 * the faults they play.
 */

/** Where the system answers (loopback). */
export interface SoakUrls {
  gateway: string;
  codeHost: string;
  registry: string;
}

/**
 * The faults the soak plays: the launcher stopped by SIGINT and started again on the same `DATA_DIR`, or SIGKILLed
 * (the release worker runs in it) and started again; in the compose stack, RabbitMQ restarted, or one release worker
 * SIGKILLed (`docker kill -s KILL`) and brought back.
 */
export type FaultKind = 'launcher restart' | 'launcher kill' | 'broker restart' | 'worker kill';

/** One fault as it happened. */
export interface FaultRecord {
  kind: FaultKind;
  /** The simulated day (fractional) it came at. */
  atDay: number;
  /** Real seconds from the fault to the system answering again. */
  downSeconds: number;
  /** What was stopped or killed, and how it stopped (exit code or signal). */
  detail: string;
}

/** A system under soak. */
export interface SoakSystem {
  /** `launcher` or `compose`. */
  readonly kind: 'launcher' | 'compose';
  /** Where it answers; set by {@link SoakSystem.start}. */
  readonly urls: SoakUrls;
  /** The simulated time, running while the system runs. */
  readonly clock: SimulatedClock;
  /** The faults this system plays over a run, in order. */
  readonly plannedFaults: readonly FaultKind[];
  /** Whether the release worker's scheduler follows {@link clock} (else the soak plays the schedules with "bump now"). */
  readonly schedulesFollowClock: boolean;
  /** Starts it on a fresh world and waits until it is ready; the clock runs from then. @throws Error when it does not come up */
  start(): Promise<void>;
  /** Plays `kind` and waits until the system is ready again. @throws Error when it does not come back */
  fault(kind: FaultKind): Promise<Omit<FaultRecord, 'atDay'>>;
  /** Stops it cleanly (the clock stops); its logs stay. */
  stop(): Promise<void>;
  /** What went wrong with the system itself during the run (a process that exited on its own…); empty when nothing did. */
  problems(): string[];
  /** Removes what it made (data folders, containers and volumes); its logs stay. */
  dispose(): Promise<void>;
}
