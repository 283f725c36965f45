import { closeSync, openSync, readSync } from 'node:fs';

/**
 * CPU time of the calling thread, in ms. A run is synchronous on this thread, so this is the run's own CPU
 * time. process.cpuUsage() would add every other thread of the process: V8's background compilers (they
 * tier up the QuickJS WebAssembly during the first calls), its GC helpers and libuv's pool, which made
 * early calls time out at half their limit. On Linux it reads the first field of
 * /proc/thread-self/schedstat (ns on the CPU), opened once and read with pread (under 1 µs); elsewhere it
 * falls back to process.cpuUsage().
 */
export class ThreadCpuClock {
  private readonly buffer = Buffer.alloc(96);

  private constructor(private readonly fd: number | null) {}

  /** Opens the calling thread's schedstat: create the clock on the thread that runs the calls. */
  static forThisThread(): ThreadCpuClock {
    try {
      const fd = openSync('/proc/thread-self/schedstat', 'r');
      const clock = new ThreadCpuClock(fd);
      if (Number.isFinite(clock.nowMs())) return clock;
      closeSync(fd);
    } catch {
      // not Linux, or no /proc
    }
    return new ThreadCpuClock(null);
  }

  /** Whether the clock reads this thread alone (false: the whole process). */
  get perThread(): boolean {
    return this.fd !== null;
  }

  nowMs(): number {
    if (this.fd === null) {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    }
    const length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    let ns = 0;
    for (let i = 0; i < length; i++) {
      const digit = this.buffer[i] - 48;
      if (digit < 0 || digit > 9) break;
      ns = ns * 10 + digit;
    }
    return length > 0 ? ns / 1e6 : Number.NaN;
  }
}
