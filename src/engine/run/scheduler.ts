// Runs a dependency graph of tasks: each after everything it waits for, independent ones
// concurrently up to `parallelism`. A failed task's dependents are skipped, with the failed task
// named. O(1) work per task besides the task itself.

export type Task = { readonly id: string; readonly waitFor: readonly string[] };
type TaskOutcome =
  | { readonly status: 'ok' }
  | { readonly status: 'failed'; readonly error: Error }
  | { readonly status: 'skipped'; readonly because: string };

export async function schedule<T extends Task>(
  tasks: readonly T[],
  parallelism: number,
  run: (task: T) => Promise<void>,
  onSkip: (task: T, because: string) => void,
  /** When it fires, no further task starts: tasks running finish, the rest are skipped because of STOPPED. */
  stop?: AbortSignal,
): Promise<Map<string, TaskOutcome>> {
  const byId = new Map<string, T>();
  for (const t of tasks) byId.set(t.id, t);
  const remaining = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  const ready: T[] = [];
  for (const t of tasks) {
    let n = 0;
    for (const w of t.waitFor) {
      if (!byId.has(w)) continue;
      n++;
      let list = dependents.get(w);
      if (!list) dependents.set(w, (list = []));
      list.push(t.id);
    }
    remaining.set(t.id, n);
    if (n === 0) ready.push(t);
  }
  const outcomes = new Map<string, TaskOutcome>();
  let running = 0;
  let head = 0;

  return new Promise((resolve) => {
    const finishIfDone = () => {
      if (outcomes.size === tasks.length && running === 0) resolve(outcomes);
    };
    const skip = (id: string, because: string) => {
      const stack = [id];
      while (stack.length) {
        const cur = stack.pop()!;
        for (const d of dependents.get(cur) ?? []) {
          if (outcomes.has(d)) continue;
          outcomes.set(d, { status: 'skipped', because });
          onSkip(byId.get(d)!, because);
          stack.push(d);
        }
      }
    };
    const started = new Set<string>();
    const halt = () => {
      for (const t of tasks) {
        if (outcomes.has(t.id) || started.has(t.id)) continue;
        outcomes.set(t.id, { status: 'skipped', because: STOPPED });
        onSkip(t, STOPPED);
      }
    };
    const pump = () => {
      if (stop?.aborted) halt();
      while (running < parallelism && head < ready.length) {
        const task = ready[head++]!;
        if (outcomes.has(task.id)) continue;
        started.add(task.id);
        running++;
        run(task).then(
          () => {
            running--;
            outcomes.set(task.id, { status: 'ok' });
            for (const d of dependents.get(task.id) ?? []) {
              const left = remaining.get(d)! - 1;
              remaining.set(d, left);
              if (left === 0 && !outcomes.has(d)) ready.push(byId.get(d)!);
            }
            pump();
            finishIfDone();
          },
          (error: unknown) => {
            running--;
            outcomes.set(task.id, {
              status: 'failed',
              error: error instanceof Error ? error : new Error(String(error)),
            });
            skip(task.id, task.id);
            pump();
            finishIfDone();
          },
        );
      }
      finishIfDone();
    };
    stop?.addEventListener(
      'abort',
      () => {
        halt();
        finishIfDone();
      },
      { once: true },
    );
    pump();
  });
}

/** The `because` of tasks skipped since the stop signal fired. */
export const STOPPED = '(stopped before it started)';
