// Civo size names and their order within a family ('g3.xsmall' < 'g3.small' < … < 'g3.2xlarge'):
// Civo resizes an instance up only (wire notes 4.2: "upd via resize, up only"; a smaller size is
// refused with openstack_instance_resize), so a plan must replace an instance whose size shrinks.

const STEPS = ['xsmall', 'small', 'medium', 'large', 'xlarge', '2xlarge', '3xlarge', '4xlarge'];

/** The family ('g3') and the step's rank of a size name, or undefined for a name outside the scheme. */
function parse(size: string): { family: string; rank: number } | undefined {
  const dot = size.lastIndexOf('.');
  if (dot < 0) return undefined;
  const rank = STEPS.indexOf(size.slice(dot + 1).toLowerCase());
  return rank < 0 ? undefined : { family: size.slice(0, dot).toLowerCase(), rank };
}

/** True when `next` is a smaller size of the same family than `prior` (Civo cannot resize down). */
export function isShrink(prior: unknown, next: unknown): boolean {
  if (typeof prior !== 'string' || typeof next !== 'string') return false;
  const a = parse(prior);
  const b = parse(next);
  return !!a && !!b && a.family === b.family && b.rank < a.rank;
}
