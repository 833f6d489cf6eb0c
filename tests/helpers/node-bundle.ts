// The programs the tests start as processes (the `converge` command, the kill and crash trials'
// children, the fleet's worker child), bundled by esbuild: one ES module graph for Node with the
// npm packages inside. A process then reads a few large files instead of some 350 small ones of
// node_modules (their resolution, reads and compiles): the command's module loading went from about
// 0.4 s to about 0.25 s. Left out: tsx (registered by whoever needs it), esbuild (tsx's, with its
// binary) and the optional native pg driver. CommonJS packages inside an ES module need a require:
// the banner gives it. A module the process imports from outside (a stack) that imports an npm
// package itself gets its own copy of it.
import { build, type BuildOptions } from 'esbuild';

const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  // shared chunks: the entries (a program and the modules it loads) hold one copy of each module
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['tsx', 'tsx/*', 'esbuild', 'pg-native'],
  banner: {
    js: "import { createRequire as __convergeRequire } from 'node:module'; const require = __convergeRequire(import.meta.url);",
  },
  outExtension: { '.js': '.mjs' },
  sourcemap: false,
  logLevel: 'silent',
};

/** Bundles `entryPoints` (paths, or output names to paths) into `outdir` as `<name>.mjs` modules for Node. */
export async function bundleForNode(entryPoints: string[] | Record<string, string>, outdir: string): Promise<void> {
  await build({ ...NODE_BUNDLE, entryPoints, outdir });
}
