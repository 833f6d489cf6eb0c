// The Event union: everything apply, refresh, plan and lookups report while they run. Events carry
// no secret values: messages from providers pass through redaction before they are emitted.
import type { Action } from './plan/action.js';

type Base = { readonly at: number };

type StepStartEvent = Base & { readonly type: 'step_start'; readonly address: string; readonly action: Action; readonly resourceType: string };
type StepFinishEvent = Base & { readonly type: 'step_finish'; readonly address: string; readonly action: Action; readonly resourceType: string; readonly elapsedMs: number; readonly id?: string };
type StepFailEvent = Base & { readonly type: 'step_fail'; readonly address: string; readonly action: Action; readonly resourceType: string; readonly elapsedMs: number; readonly error: string; readonly code?: string };
type StepSkipEvent = Base & { readonly type: 'step_skip'; readonly address: string; readonly action: Action; readonly resourceType: string; readonly because: string };
type RetryEvent = Base & { readonly type: 'retry'; readonly address: string; readonly operation: string; readonly attempt: number; readonly retriesLeft: number; readonly delayMs: number; readonly error: string; readonly elapsedMs: number };
type PollEvent = Base & { readonly type: 'poll'; readonly address: string; readonly operation: string; readonly attempt: number; readonly message: string; readonly elapsedMs: number };
type ProgressEvent = Base & { readonly type: 'progress'; readonly address: string; readonly operation: string; readonly message: string; readonly elapsedMs: number };
type WarningEvent = Base & { readonly type: 'warning'; readonly address: string; readonly message: string };
type ApplyStartEvent = Base & { readonly type: 'apply_start'; readonly steps: number };
type ApplyFinishEvent = Base & { readonly type: 'apply_finish'; readonly succeeded: number; readonly failed: number; readonly skipped: number; readonly elapsedMs: number };
type RefreshEvent = Base & { readonly type: 'refresh'; readonly address: string; readonly outcome: 'unchanged' | 'drifted' | 'gone'; readonly elapsedMs: number };

export type Event =
  | StepStartEvent | StepFinishEvent | StepFailEvent | StepSkipEvent
  | RetryEvent | PollEvent | ProgressEvent | WarningEvent
  | ApplyStartEvent | ApplyFinishEvent | RefreshEvent;

export type EventType = Event['type'];
export type EventListener = (event: Event) => void;
