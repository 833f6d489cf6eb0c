// The engine's own signal for one operation (a plan's refresh, an apply): one listener on the
// caller's signal, however many steps run. Steps, HTTP requests and waits listen on this one, which
// has no listener limit, so Node never prints MaxListenersExceededWarning (nor anything else).
import { setMaxListeners } from 'node:events';

type OwnSignal = { readonly signal: AbortSignal; dispose(): void };

export function ownSignal(caller: AbortSignal | undefined): OwnSignal {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (!caller) return { signal: controller.signal, dispose() {} };
  const onAbort = () => controller.abort(caller.reason);
  if (caller.aborted) controller.abort(caller.reason);
  else caller.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, dispose: () => caller.removeEventListener('abort', onAbort) };
}
