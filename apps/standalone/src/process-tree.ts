import { readdirSync, readFileSync } from 'node:fs';

/** One process of a tree measured by {@link processTreeMemory}. */
export interface ProcessMemory {
  pid: number;
  /** Its resident set size (`VmRSS` of `/proc/<pid>/status`), in bytes; 0 for a process that has no memory (a zombie). */
  residentBytes: number;
}

/** The resident memory of a process and of every process below it, as {@link processTreeMemory} read it. */
export interface ProcessTreeMemory {
  /** The sum of the processes' resident set sizes, in bytes (pages two of them share are counted in each). */
  residentBytes: number;
  /** The processes counted: the root first, then its descendants, each before its own children. */
  processes: ProcessMemory[];
}

/** How {@link processTreeMemory} finds a process's children. */
export interface ProcessTreeOptions {
  /**
   * `children` (the default): the kernel's list of each thread's children (`/proc/<pid>/task/<tid>/children`), and the
   * scan where the kernel has no such files (built without `CONFIG_PROC_CHILDREN`); `scan`: the parent of every
   * process in `/proc` (`/proc/<pid>/stat`).
   */
  via?: 'children' | 'scan';
}

/**
 * The resident memory of process `rootPid` (default: this one) and of every process it started that is still running,
 * and those they started, read from Linux's `/proc` at the moment of the call: each one's `VmRSS`, summed.
 * A process that ends while it is read is left out. Synchronous; it reads two small files per process (and, for the
 * scan, one per process of the machine).
 * @returns undefined where there is no `/proc` (any system but Linux) or no process `rootPid`
 */
export function processTreeMemory(rootPid: number = process.pid, options: ProcessTreeOptions = {}): ProcessTreeMemory | undefined {
  if (process.platform !== 'linux') return undefined;
  const root = residentBytesOf(rootPid);
  if (root === undefined) return undefined;
  let childrenOf = options.via === 'scan' ? scanForChildren() : childrenFromTasks;
  const processes: ProcessMemory[] = [];
  const seen = new Set<number>();
  const visit = (pid: number, residentBytes: number) => {
    seen.add(pid);
    processes.push({ pid, residentBytes });
    let children = childrenOf(pid);
    if (children === undefined) {
      childrenOf = scanForChildren();
      children = childrenOf(pid) ?? [];
    }
    for (const child of children) {
      if (seen.has(child)) continue;
      const bytes = residentBytesOf(child);
      if (bytes !== undefined) visit(child, bytes);
    }
  };
  visit(rootPid, root);
  return { residentBytes: processes.reduce((sum, { residentBytes }) => sum + residentBytes, 0), processes };
}

/** `VmRSS` of process `pid` in bytes (0 when it has none); undefined when there is no such process. */
function residentBytesOf(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? 0 : Number(kib) * 1024;
}

/**
 * The children of `pid` from the kernel's per-thread lists (a child belongs to the thread that started it);
 * undefined when this kernel keeps no such lists, [] when the process is gone.
 */
function childrenFromTasks(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  let listed = false;
  for (const tid of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    listed = true;
    for (const child of text.split(' ')) if (child.trim() !== '') children.push(Number(child));
  }
  return listed || tasks.length === 0 ? children : undefined;
}

/** Every process's children, from the parent each names in `/proc/<pid>/stat` (read once, when called). */
function scanForChildren(): (pid: number) => number[] {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so the fields are read after the last `)`.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const siblings = byParent.get(ppid);
    if (siblings) siblings.push(Number(entry));
    else byParent.set(ppid, [Number(entry)]);
  }
  return (pid) => byParent.get(pid) ?? [];
}
