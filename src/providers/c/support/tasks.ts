// Cloud tasks: a Cloud write answers {"tasks": [id]}; the task is polled (src/kit/poll.ts) every
// pollingIntervalSeconds until FINISHED. ERROR → ProviderError carrying the task's error text;
// pollingTimeoutSeconds → TimeoutError naming the task. Each poll is reported as an event.
import { poll } from '../../../kit/poll.js';
import { ProviderError } from '../../../engine/errors.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import type { GcoreClient } from '../client.js';
import type { Task, TaskIds } from '../wire/answers.js';

type TaskCtx = Pick<OperationContext, 'signal' | 'retry' | 'report' | 'address' | 'operation'>;

/** Waits for one task to finish and returns it (with its created_resources). */
export async function waitForTask(ctx: TaskCtx, client: GcoreClient, taskId: string): Promise<Task> {
  const { pollingIntervalSeconds, pollingTimeoutSeconds } = client.settings;
  return poll(ctx, {
    what: `task ${taskId}`,
    intervalMs: pollingIntervalSeconds * 1000,
    timeoutMs: pollingTimeoutSeconds * 1000,
    check: async () => {
      const task = await client.getTask(ctx, taskId);
      if (task.state === 'FINISHED') return { done: true, value: task };
      if (task.state === 'ERROR') {
        throw new ProviderError({
          provider: 'provc',
          operation: `${ctx.operation} (task ${task.task_type})`,
          method: 'GET',
          pathTemplate: '/cloud/v1/tasks/{task_id}',
          vendorCode: 'TASK_ERROR',
          retryable: false,
          detail: `task ${taskId} failed with error: ${task.error ?? 'no error text'}`,
        });
      }
      return { done: false, message: `${task.task_type} is ${task.state}` };
    },
  });
}

/** Polls the first task of a write (the SDKs' rule for updates and deletes); no task means nothing to wait for. */
export async function waitForFirst(
  ctx: TaskCtx,
  client: GcoreClient,
  ids: TaskIds | undefined,
): Promise<Task | undefined> {
  const first = ids?.tasks?.[0];
  return first ? waitForTask(ctx, client, first) : undefined;
}

/** Polls a create's single task and returns the one id it made under `key` ('floatingips', 'clusters', ...). */
export async function waitForCreated(ctx: TaskCtx, client: GcoreClient, ids: TaskIds, key: string): Promise<string> {
  if (ids.tasks?.length !== 1) {
    throw new ProviderError({
      provider: 'provc',
      operation: ctx.operation,
      retryable: false,
      detail: `expected exactly one task to be created, got ${ids.tasks?.length ?? 0}`,
    });
  }
  const task = await waitForTask(ctx, client, ids.tasks[0]!);
  const made = task.created_resources?.[key];
  if (!Array.isArray(made) || made.length !== 1) {
    throw new ProviderError({
      provider: 'provc',
      operation: ctx.operation,
      retryable: false,
      detail: `task ${task.id} finished but created ${Array.isArray(made) ? made.length : 0} ${key}, expected exactly one`,
    });
  }
  return String(made[0]);
}
