import fs from 'node:fs';
import os from 'node:os';
import { isAlive } from '../process';

/**
 * Which process runs an import, and whether it still does. A job records its owner's host, pid and
 * start; on the same host a pid that is not alive, or alive with another start (the pid was recycled),
 * means the owner is gone. Another host's processes cannot be seen from here: for them the answer is
 * "unknown" and the caller falls back to the job's heartbeat.
 */
export interface ProcessOwner {
  host: string;
  pid: number;
  /** `<boot id>:<start time in clock ticks>` from /proc on Linux; null where that is not available. */
  start: string | null;
}

let bootId: string | undefined;

/** When a process started, as `<boot id>:<ticks since boot>`; the boot id makes it unique across reboots. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (field 2) is in parentheses and may hold spaces: fields are counted after its last ")".
    // Field 3 (the state) comes first there, so the start time, field 22, is the 20th.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    bootId ??= fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return ticks ? `${bootId}:${ticks}` : null;
  } catch {
    return null;
  }
}

export function thisProcess(): ProcessOwner {
  return { host: os.hostname(), pid: process.pid, start: processStart(process.pid) };
}

/**
 * True when the owner is certainly gone, false when it is certainly alive, null when this process
 * cannot tell (another host, or a job from before owners were recorded). `runsHere` answers for jobs
 * owned by this very process, which is alive but may have lost the job.
 */
export function ownerGone(owner: { host: string | null; pid: number | null; start: string | null }, runsHere: () => boolean): boolean | null {
  if (owner.host === null || owner.pid === null || owner.host !== os.hostname()) return null;
  const { start } = owner;
  if (owner.pid === process.pid && start === processStart(process.pid)) return !runsHere();
  if (!isAlive(owner.pid)) return true;
  const now = start === null ? null : processStart(owner.pid);
  return now !== null && now !== start;
}
