/**
 * Settings of every session the app opens. JIT compilation is off: the app's statements take milliseconds
 * to tens of them, and PostgreSQL compiles whenever a plan's estimated cost passes `jit_above_cost`, which
 * index scans over a hub or a posting list do. At MAG size that compilation took 5-13 ms of a search's
 * postings read and page statement (and its 95th percentile from 56.6 to 23.4 ms with it off), and up to 0.7
 * s in metapath plans (docs/benchmarks.md). Passed as a startup option, so no statement is spent on it.
 */
export const APP_SESSION_OPTIONS = '-c jit=off';
