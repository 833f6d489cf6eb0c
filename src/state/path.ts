// The path grammar of inputs, outputs and secret paths: 'interfaces.eth0.ipv4Address',
// 'rules[0].cidrs', 'pools.*.size', 'config["user.token"]'. It lives in the state layer, which
// imports nothing, so the secret sealing at rest and the engine read paths one way.

export type PathSegment = string | number;

export function parsePath(path: string): PathSegment[] {
  // A single key (most reference and secret paths): its own one-element list, not one grown by push.
  if (path && path.indexOf('.') < 0 && path.indexOf('[') < 0) return [path];
  const out: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[' && path[i + 1] === '"') {
      // A quoted key (formatPathExact): ["user.token"], JSON string syntax.
      let j = i + 2;
      while (j < path.length && path[j] !== '"') j += path[j] === '\\' ? 2 : 1;
      out.push(JSON.parse(path.slice(i + 1, j + 1)) as string);
      i = j + 2;
    } else if (c === '[') {
      const j = path.indexOf(']', i);
      const t = path.slice(i + 1, j < 0 ? path.length : j);
      out.push(t === '*' ? '*' : /^\d+$/.test(t) ? Number(t) : t);
      i = j < 0 ? path.length : j + 1;
    } else {
      let j = i;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}
