// Why a step was chosen: for people (render, JSON), never read by apply.

/**
 * new: declared, not in state · changed: inputs differ · options_changed: only options or dependencies differ
 * (recorded without a provider call) · replace_requested: the caller asked for it · replace_forced: a change at a replaceOn path ·
 * type_changed: the token differs from the state's · provider_changed: another provider instance makes it now
 * (the object lives in another account or server, so it is replaced) · removed: in state, not declared · retained: removed with
 * retainOnDelete · gone: deleted outside converge (found by refresh) · moved: renamed through aliases ·
 * unchanged: nothing to do · deposed: an object left behind by an interrupted replacement ·
 * tainted: a create made the object but then failed, so it is replaced · drift: changed outside converge (refresh
 * found it) and put back as declared.
 */
export type StepCause =
  | 'new'
  | 'changed'
  | 'options_changed'
  | 'replace_forced'
  | 'replace_requested'
  | 'type_changed'
  | 'provider_changed'
  | 'removed'
  | 'retained'
  | 'gone'
  | 'moved'
  | 'unchanged'
  | 'deposed'
  | 'tainted'
  | 'drift';
