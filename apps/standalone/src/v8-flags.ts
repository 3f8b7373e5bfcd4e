import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags the launcher sets on its own process (`v8.setFlagsFromString`) before any other module of it is
 * evaluated (`main.ts` imports this module first), so that `pnpm start` needs no flags on its command line. They trade
 * a little CPU for resident memory. `pnpm bench:launcher-memory` on an existing folder, in MiB once ready / after
 * 10,000 books created (peak), with PGlite's settings and its fresh folder's child process already in place: no flags
 * 320–360 / 495–525 (peak 805–865); the first two 277 / 430–445 (peak 284); and the third 265 / 385–400; all four
 * 266–270 / 290–306 (peak 300), for about 8% more launcher CPU time while creating the books.
 *
 * - `--no-wasm-tier-up --no-wasm-dynamic-tiering`: PGlite's WebAssembly stays on V8's baseline compiler (Liftoff).
 *   TurboFan optimising PGlite's hot functions took some 500 MiB for a moment and kept about 70 MiB more; the
 *   launcher's CPU time goes to HTTP and JavaScript more than to PostgreSQL, and did not measurably change.
 *   (`--liftoff-only` set this way does nothing: dynamic tiering does not read it.)
 * - `--semi-space-growth-factor=1`: the young generation keeps the size it reached while the launcher's modules were
 *   loaded instead of doubling up to 128 MiB under load. (Set before they load, from an entry module of its
 *   own, it stayed at 2 MiB: 35 MiB less, but some 15% more CPU time in collections.) The size reached while loading
 *   is 32 MiB in some starts and 64 MiB in others; its largest size, read by V8 only at start, cannot be set from
 *   here: `./dev start` gives it on the command line (`--max-semi-space-size=16`, so 32 MiB at most; the launcher's
 *   README, Memory).
 * - `--heap-growing-percent=20`: the old generation grows by 20% between full collections instead of V8's dynamic
 *   factor (up to 4x on a machine with memory to spare), so the garbage of a load is collected sooner.
 *
 * `--optimize-for-size` took the heap further down (about 232 / 250 MiB) for some 40% more CPU time: not used.
 * Node.js warns that V8 flags changed after start may do nothing; these are read when V8 compiles a WebAssembly module
 * or resizes its heap (`test/v8-flags.test.ts` checks the young generation's; the benchmark shows the others').
 */
export const LAUNCHER_V8_FLAGS: readonly string[] = [
  '--no-wasm-tier-up',
  '--no-wasm-dynamic-tiering',
  '--semi-space-growth-factor=1',
  '--heap-growing-percent=20',
];

for (const flag of LAUNCHER_V8_FLAGS) setFlagsFromString(flag);
