/** The signals that ask a server to stop: Ctrl-C in a terminal (SIGINT), a service manager or `kill` (SIGTERM). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const satisfies readonly NodeJS.Signals[];
export type StopSignal = (typeof STOP_SIGNALS)[number];

export interface StopSignals {
  /** The first stop signal received, or null. */
  readonly received: StopSignal | null;
  /** Calls `handler` with each stop signal from now on, and at once with the first one if it came already. */
  onStop(handler: (signal: StopSignal) => void): void;
  /** Stops listening (the signals' default action, ending the process, applies again). */
  dispose(): void;
}

/**
 * Catches SIGINT and SIGTERM from the moment it is called, so a signal that comes while a server is still
 * starting (building, migrating, loading the demo) stops it after the step under way, its child processes
 * with it, instead of ending this process alone and leaving them behind.
 */
export function watchStopSignals(): StopSignals {
  let received: StopSignal | null = null;
  const handlers: ((signal: StopSignal) => void)[] = [];
  const listener = (signal: StopSignal) => {
    received ??= signal;
    for (const h of handlers) h(signal);
  };
  for (const s of STOP_SIGNALS) process.on(s, listener);
  return {
    get received() { return received; },
    onStop(handler) {
      handlers.push(handler);
      if (received) handler(received);
    },
    dispose() {
      for (const s of STOP_SIGNALS) process.off(s, listener);
    },
  };
}
