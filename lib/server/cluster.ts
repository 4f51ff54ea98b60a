import cluster, { type Worker } from 'node:cluster';

export interface ClusterOptions {
  /** How many worker processes to keep running. */
  workers: number;
  /** The script each worker runs, its arguments and Node options (e.g. a loader). */
  exec: string;
  args: string[];
  execArgv?: string[];
  /** The workers' working directory; this process's by default. */
  cwd?: string;
  /** Added to this process's environment in every worker. */
  env?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
  /** How long stopping workers get to finish their requests before they are killed; 15 s by default. */
  stopGraceMs?: number;
}

export interface AppCluster {
  /** The workers' pids now. */
  pids(): number[];
  /** Stops every worker (the signal first, SIGKILL after the grace period); `done` then resolves. */
  stop(signal?: NodeJS.Signals): void;
  /** Resolves once every worker is gone, with 0 after a stop and 1 when workers kept failing at start. */
  done: Promise<number>;
}

/** Workers in a row that die before they listen: past this the cluster stops rather than fork forever (e.g. port in use). */
const MAX_FAILED_STARTS = 3;
/** Pause before replacing a worker that died before it listened, so a failing start does not spin. */
const FAILED_START_PAUSE_MS = 1_000;

/**
 * Runs `workers` copies of a server script that listen on one port (node:cluster shares the listening socket;
 * the primary hands connections out in turn). A worker that dies is replaced; workers exit by themselves should
 * this process die (their IPC channel closes), so none is left behind.
 */
export function startCluster(opts: ClusterOptions): AppCluster {
  if (!cluster.isPrimary) throw new Error('startCluster runs in the primary process only');
  const log = opts.log ?? console.log;
  cluster.setupPrimary({ exec: opts.exec, args: opts.args, execArgv: opts.execArgv ?? [], cwd: opts.cwd });

  const listening = new WeakSet<Worker>();
  let failedStarts = 0;
  let stopping = false;
  let exitCode = 0;
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => { finish = resolve; });
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());

  const fork = () => {
    const worker = cluster.fork(opts.env ?? {});
    worker.once('listening', () => {
      listening.add(worker);
      failedStarts = 0;
    });
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) {
      if (!live().length) finish(exitCode);
      return;
    }
    const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
    if (listening.has(worker)) {
      log(`App process ${worker.process.pid} ${how}; starting another`);
      fork();
      return;
    }
    failedStarts += 1;
    if (failedStarts >= MAX_FAILED_STARTS) {
      log(`App process ${worker.process.pid} ${how} before it could listen, ${failedStarts} times in a row; stopping`);
      exitCode = 1;
      stop('SIGTERM');
      return;
    }
    log(`App process ${worker.process.pid} ${how} before it could listen; trying again`);
    setTimeout(() => { if (!stopping) fork(); }, FAILED_START_PAUSE_MS);
  };
  cluster.on('exit', onExit);

  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    const workers = live();
    if (!workers.length) {
      finish(exitCode);
      return;
    }
    for (const w of workers) w.process.kill(signal);
    const timer = setTimeout(() => {
      for (const w of live()) w.process.kill('SIGKILL');
    }, opts.stopGraceMs ?? 15_000);
    timer.unref();
  };

  for (let i = 0; i < opts.workers; i++) fork();
  void done.then(() => cluster.off('exit', onExit));
  return { pids: () => live().map((w) => w.process.pid!).filter(Boolean), stop, done };
}
