import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) that process `pid` has used so far, from `/proc/<pid>/stat` (its `utime` and `stime`, in
 * clock ticks of 1/100 s); NaN where there is no `/proc` (off Linux) or no such process.
 */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
