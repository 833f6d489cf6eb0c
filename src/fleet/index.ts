// converge/fleet: many stacks on many machines, one PostgreSQL — stacks registered with their
// settings, runs queued per stack (pg-boss), workers, drift watch, approvals, run history, events.
// Sits above src/engine and src/state (which never import it) and below src/cli.
export { Fleet } from './fleet.js';
export type { FleetOptions, StackRegistration } from './fleet.js';
export type { WorkOptions } from './worker.js';
export type { AccountLimit } from './budget.js';
export type { RunsQuery, StackStatus, FleetStatus } from './history.js';
export { RUN_KINDS, RUN_STATUSES } from './run.js';
export type { Run, RunKind, RunStatus } from './run.js';
export type {
  FleetEvent,
  FleetEventListener,
  RunQueuedEvent,
  RunStartedEvent,
  RunFinishedEvent,
  DriftFoundEvent,
  DriftSkippedEvent,
  ConnectionWaitEvent,
  BudgetWaitEvent,
  AccountWaitEvent,
  QueueErrorEvent,
} from './events.js';
export { UnknownStackError, UnknownRunError, StackModuleError, ScheduleError, NotApprovableError } from './errors.js';
export type { NotApprovableReason } from './errors.js';
