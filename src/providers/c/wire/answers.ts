// Shapes of Gcore answers that the client and the wire helpers share: a Cloud list page, the task
// ids an asynchronous request answers, a task, and a page of the CDN activity log.

/** A Cloud list page: the total and this page's items. */
export type CloudPage<T = Record<string, unknown>> = { readonly count: number; readonly results: T[] };

/** The Cloud API's answer to an asynchronous request: the ids of the tasks it started. */
export type TaskIds = { readonly tasks: string[] };
export type TaskState = 'NEW' | 'RUNNING' | 'FINISHED' | 'ERROR';
export type Task = Record<string, unknown> & {
  id: string;
  task_type: string;
  state: TaskState;
  error?: string | null;
  created_resources?: Record<string, unknown[]> | null;
};

export type CdnActivityEntry = {
  readonly id: number;
  readonly path: string;
  readonly method: string;
  readonly requested_at: string;
  readonly data?: Record<string, unknown>;
  readonly status_code: number;
  readonly actions?: readonly { action_type?: string; state_after_request?: Record<string, unknown> }[];
};
export type CdnActivityPage = {
  readonly count: number;
  readonly next?: string | null;
  readonly results: CdnActivityEntry[];
};
