// converge: the public export list, nothing else. Anything not exported here may change without a
// major version. Providers live in converge/providers/<x>; the engine never imports them.
export { Engine } from './engine/engine.js';
export type { StateEntry } from './engine/state-ops.js';
export type {
  EngineOptions,
  PlanOptions,
  ApplyOptions,
  DestroyOptions,
  RefreshResult,
  ImportResult,
} from './engine/engine.js';
export { Plan } from './engine/plan/plan.js';
export type { PlanSummary, PlanMode } from './engine/plan/plan.js';
export type { DriftEntry, DriftChange } from './engine/plan/drift.js';
export type { SaveOptions, LoadOptions } from './engine/plan/saved.js';
export { PlanFileError } from './engine/plan/plan-errors.js';
export type { PlanFileProblem } from './engine/plan/plan-errors.js';
export type { MarkdownOptions } from './engine/plan/markdown.js';
export type { PlanJSON } from './engine/plan/json.js';
export type { Step, StepChange } from './engine/plan/step.js';
export type { StepCause } from './engine/plan/reason.js';
export type { RenderOptions } from './engine/plan/render.js';
export type { Policy, PolicyUse, PolicyReport, PolicyAt, PolicyPlan } from './engine/plan/policy.js';
export type { PolicyLevel, PolicyViolation, PendingCheck } from './engine/violation.js';
export { ref, isRef } from './engine/decl/ref.js';
export { stackRef, stackOutputs, isStackRef } from './engine/decl/stack-ref.js';
export type { StackRef, StackOutputs } from './engine/decl/stack-ref.js';
export type { OutputChange, OutputAction } from './engine/plan/outputs.js';
export type { Ref } from './engine/decl/ref.js';
export type { ResourceDecl, ResourceOptions, ResourceTimeouts, Input, Inputs } from './engine/decl/resource-decl.js';
export { resourceHelper, lookupHelper } from './engine/decl/helper.js';
export type {
  TypedDecl,
  TypedRef,
  TypedInputs,
  ResourceHelper,
  LookupCall,
  LookupHelper,
} from './engine/decl/helper.js';
export { defineProvider, defineResource, defineLookup, cannotTell, isCannotTell } from './engine/provider/define.js';
export type {
  Provider,
  ProviderSpec,
  ResourceDefinition,
  LookupDefinition,
  CreateResult,
  ReadResult,
  UpdateResult,
  Prior,
  CheckIssue,
  FindHint,
  FindResult,
  CannotTell,
  ReadItem,
} from './engine/provider/define.js';
export { standaloneContext } from './engine/provider/context.js';
export type { OperationContext, OperationKind, Report } from './engine/provider/context.js';
export type { RetryPolicy } from './engine/provider/retry-policy.js';
export { withRetry } from './engine/run/retry.js';
export { unknown, isUnknown } from './engine/values/unknown.js';
export { sensitive, isSensitive } from './engine/values/secret.js';
export { secret, type Secret } from './engine/values/secret.js';
export {
  ConvergeError,
  ValidationError,
  StalePlanError,
  StateLockedError,
  StateConflictError,
  StateCorruptError,
  SecretsPassphraseError,
  ApplyError,
  ProtectedResourceError,
  LookupError,
  ProviderError,
  TimeoutError,
  ConfigError,
  PartialCreateError,
  PolicyViolationError,
  RefreshError,
  UnresolvedInputsError,
  formatIssue,
} from './engine/errors.js';
export type { Issue, IssueCode, IssueField } from './engine/issue.js';
export type {
  Event,
  EventType,
  EventListener,
  StepStartEvent,
  StepFinishEvent,
  StepFailEvent,
  StepSkipEvent,
  RetryEvent,
  PollEvent,
  WaitEvent,
  ProgressEvent,
  WarningEvent,
  ApplyStartEvent,
  ApplyFinishEvent,
  RefreshEvent,
} from './engine/events.js';
export { progressReporter } from './engine/progress/index.js';
export type { ProgressOptions, ProgressReporter, ProgressStream } from './engine/progress/index.js';
export type { Action } from './engine/action.js';
export type { ApplyResult, StepOutcome, FailedStep, SkippedStep } from './engine/apply-result.js';
export { MemoryStateStore, MemoryLocation } from './state/stores/memory.js';
export { FileStateStore } from './state/stores/file.js';
export type { FileStateStoreOptions } from './state/stores/file.js';
export { PostgresStateStore } from './state/stores/postgres.js';
export type { PostgresStateStoreOptions } from './state/stores/postgres.js';
export type { StateStore, Lock, LockInfo, LockRequest, ForceUnlockOptions } from './state/store.js';
export { LockHolderAliveError } from './state/errors.js';
export type { State, ResourceState, PendingOperation, StackOutput } from './state/model.js';
export type { OutputsSnapshot } from './state/store.js';
