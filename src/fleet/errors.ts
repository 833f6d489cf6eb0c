// converge/fleet's errors: bad input to a Fleet (an unknown stack or run, a stack module that fails
// to load, a schedule that does not parse, an approval of a run that holds no plan). Each is thrown
// before anything is queued or written, and carries its facts in fields.
import { ConvergeError } from '../engine/errors.js';

/** No stack of this name is registered. Code `CONVERGE_FLEET_UNKNOWN_STACK`. */
export class UnknownStackError extends ConvergeError {
  override readonly name = 'UnknownStackError';
  override readonly code = 'CONVERGE_FLEET_UNKNOWN_STACK';
  constructor(readonly stackName: string) {
    super(`No stack '${stackName}' is registered in this fleet.\nRegister it first: fleet.register({ name, module }).`);
  }
}

/** No run has this id (or it was removed by retention). Code `CONVERGE_FLEET_UNKNOWN_RUN`. */
export class UnknownRunError extends ConvergeError {
  override readonly name = 'UnknownRunError';
  override readonly code = 'CONVERGE_FLEET_UNKNOWN_RUN';
  constructor(readonly runId: string) {
    super(
      `No run '${runId}' in this fleet (never queued, or older than the run history keeps).\nList runs with fleet.runs().`,
    );
  }
}

/** A stack module that cannot be loaded, or does not have the stack module's shape. Code `CONVERGE_FLEET_STACK_MODULE`. */
export class StackModuleError extends ConvergeError {
  override readonly name = 'StackModuleError';
  override readonly code = 'CONVERGE_FLEET_STACK_MODULE';
  constructor(
    readonly module: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Cannot load the stack module ${module}: ${reason}.\nA stack module default-exports { providers, state?, resources } or a function returning it.`,
      options,
    );
  }
}

/** A drift schedule that is not a cron expression, or a bad jitter. Code `CONVERGE_FLEET_SCHEDULE`. */
export class ScheduleError extends ConvergeError {
  override readonly name = 'ScheduleError';
  override readonly code = 'CONVERGE_FLEET_SCHEDULE';
  constructor(
    readonly stackName: string,
    readonly cron: string,
    reason: string,
  ) {
    super(
      `The drift schedule '${cron}' of stack '${stackName}' does not parse: ${reason}.\nGive a cron expression such as '*/15 * * * *' (every 15 minutes).`,
    );
  }
}

/** Why a run cannot be approved. */
export type NotApprovableReason = 'not_a_plan' | 'not_succeeded' | 'no_saved_plan';

/** `approve()` of a run that is not a finished plan run holding a saved plan. Code `CONVERGE_FLEET_NOT_APPROVABLE`. */
export class NotApprovableError extends ConvergeError {
  override readonly name = 'NotApprovableError';
  override readonly code = 'CONVERGE_FLEET_NOT_APPROVABLE';
  constructor(
    readonly runId: string,
    readonly reason: NotApprovableReason,
    readonly kind: string,
    readonly status: string,
  ) {
    super(
      `Run ${runId} (${kind}, ${status}) cannot be approved: ${
        reason === 'not_a_plan'
          ? 'only a plan run is approved'
          : reason === 'not_succeeded'
            ? 'its plan has not been made (it must have succeeded)'
            : 'its plan had no changes, so there is nothing to apply'
      }.\nQueue a plan with fleet.enqueue(stack, 'plan') and approve that run.`,
    );
  }
}
