// A validation issue: which resource, which input path, which rule. `ValidationError` carries a list.

export const issueCodes = [
  'invalid_type', 'invalid_value', 'too_small', 'too_big', 'invalid_format', 'unrecognized_keys', 'custom',
  'unknown_type', 'duplicate_name', 'missing_reference', 'missing_output', 'dependency_cycle',
  'invalid_option', 'missing_region', 'invalid_reference',
] as const;
export type IssueCode = (typeof issueCodes)[number] | (string & {});

export type Issue = {
  /** The resource's name, or '' for lookup arguments and engine options. */
  readonly resource: string;
  /** The input path inside the resource's inputs (or the option path, prefixed 'options'). */
  readonly path: readonly (string | number)[];
  readonly code: IssueCode;
  readonly message: string;
};
