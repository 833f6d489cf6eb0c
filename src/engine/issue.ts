// A validation issue: which resource, which part of its declaration, which path, which rule.
// `ValidationError` carries a list.

/**
 * The rule an {@link Issue} broke: zod's codes for schema rules (`invalid_type`, `too_small`,
 * `unrecognized_keys`, …), converge's for the stack (`unknown_type`, `duplicate_name`,
 * `missing_reference`, `dependency_cycle`, `invalid_option`, …), or a provider's own from `check`.
 */
export type IssueCode =
  | 'invalid_type'
  | 'invalid_value'
  | 'too_small'
  | 'too_big'
  | 'invalid_format'
  | 'unrecognized_keys'
  | 'custom'
  | 'unknown_type'
  | 'duplicate_name'
  | 'missing_reference'
  | 'missing_output'
  | 'dependency_cycle'
  | 'invalid_option'
  | 'missing_region'
  | 'invalid_reference'
  | 'not_json'
  | 'reserved_key'
  | 'unknown_marker'
  | (string & {});

/** Which part of a declaration an issue's path is inside. */
export type IssueField = 'inputs' | 'options' | 'declaration' | 'args' | 'plan';

/** Facts an issue carries beside its code (its message is built from them); absent when they do not apply. */
export type IssueFacts = {
  /** The declared name, key, option or type closest to a misspelt one (the message's "did you mean"). */
  readonly suggestion?: string;
  /** A dependency cycle, its first name repeated at the end ('dependency_cycle'). */
  readonly cycle?: readonly string[];
  /** The module of the shipped provider that serves an unknown type's package ('converge/providers/c'). */
  readonly providerModule?: string;
};

/** Only the facts of `from` that are set (nothing else of it), so an issue without one has no such key. */
export function issueFacts(from: IssueFacts): IssueFacts {
  const { suggestion, cycle, providerModule } = from;
  return {
    ...(suggestion !== undefined ? { suggestion } : {}),
    ...(cycle !== undefined ? { cycle } : {}),
    ...(providerModule !== undefined ? { providerModule } : {}),
  };
}

/** One problem a {@link ValidationError} lists: which resource, which part of its declaration, which path, which rule. */
export type Issue = IssueFacts & {
  /** The resource's name (or its index `[3]` when it has none), the lookup token, or '' for plan options. */
  readonly resource: string;
  /**
   * Where `path` starts: the resource's `inputs` (the default when absent), its `options`, the
   * `declaration` itself (name, type, inputs as a whole), a lookup's `args`, or the `plan()` options.
   */
  readonly field?: IssueField;
  /** The path inside that field: ['files', 0, 'mode'], ['timeouts', 'create'], ['type']. */
  readonly path: readonly (string | number)[];
  /** The rule broken; stable, for programs. */
  readonly code: IssueCode;
  /** What is wrong, for a person (may change between versions; match on `code`). */
  readonly message: string;
};

/** The field an issue's path starts in. */
export function fieldOf(issue: Issue): IssueField {
  return issue.field ?? 'inputs';
}
