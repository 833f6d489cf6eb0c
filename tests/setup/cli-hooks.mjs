// Module resolve hook of the test launcher (cli-launch.mjs): an import that resolves to the source
// of a bundled entry point (src/index.ts, src/providers/b/index.ts, ...) loads the bundle's module.
const map = new Map();

export function initialize(data) {
  for (const [from, to] of Object.entries(data.map)) map.set(from, to);
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const to = map.get(resolved.url);
  return to ? { url: to, format: 'module', shortCircuit: true } : resolved;
}
