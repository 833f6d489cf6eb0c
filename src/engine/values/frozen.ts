// What the engine derives from a frozen list, made once per list. A definition's own secret paths
// are one frozen list that its declarations, steps and records share: the input paths, the parsed
// patterns and the split paths taken from them are made once per definition, not per resource.

/** `derive` made once per frozen list; a list that is not frozen may change, so it is derived afresh. */
export function perFrozenList<T>(derive: (list: readonly string[]) => T): (list: readonly string[]) => T {
  const made = new WeakMap<readonly string[], T>();
  return (list) => {
    if (!Object.isFrozen(list)) return derive(list);
    let out = made.get(list);
    if (out === undefined) made.set(list, (out = derive(list)));
    return out;
  };
}
