// engine.lookup()'s gate: the call's token must name a lookup of this engine and its arguments must
// be valid (JSON data, no unknown keys, the schema, the provider's check), all before any request.
import type { AnyLookup, Provider } from './provider/define.js';
import type { LookupCall } from './decl/helper.js';
import { unknownLookupMessage, unknownTypeFacts, validateLookupArgs } from './validate/validate.js';
import { ValidationError } from './errors.js';
import { didYouMean } from './validate/suggest.js';

type Served = { readonly def: AnyLookup; readonly provider: Provider<unknown> };

/** The lookup a call names and its parsed arguments; throws one ValidationError with every problem. */
export function checkedLookup(
  lookups: ReadonlyMap<string, Served>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any helper's call, whatever its argument type
  call: string | LookupCall<any, unknown>,
  args: Record<string, unknown> | undefined,
  instancesOf: (token: string) => ReadonlyMap<string | undefined, Provider<unknown>> = () => new Map(),
): { token: string; found: Served; data: unknown } {
  const token = typeof call === 'string' ? call : (call as { token?: string } | null)?.token;
  const rawArgs = typeof call === 'string' ? (args ?? {}) : ((call as { args?: unknown } | null)?.args ?? {});
  const instance = typeof call === 'string' ? undefined : (call as { provider?: unknown } | null)?.provider;
  const any = typeof token === 'string' ? lookups.get(token) : undefined;
  // The call's instance (`ops.getNetwork(...)`, or `provider` on the call), else the default one.
  const served = typeof token === 'string' ? instancesOf(token) : new Map<string | undefined, Provider<unknown>>();
  const provider = served.size
    ? served.get(instance as string | undefined)
    : instance === undefined
      ? any?.provider
      : undefined;
  if (any && !provider)
    throw new ValidationError([
      {
        resource: token!,
        field: 'plan',
        path: ['provider'],
        code: 'unknown_instance',
        message: `no instance${instance === undefined ? ' without a name' : ` named ${JSON.stringify(instance)}`} of ${any.provider.name} serves ${token}.${
          typeof instance === 'string'
            ? didYouMean(
                instance,
                [...served.keys()].filter((k): k is string => k !== undefined),
              )
            : ''
        } Instances: ${[...served.keys()].map((k) => (k === undefined ? 'the default one' : `'${k}'`)).join(', ')}.`,
      },
    ]);
  const found = any && provider ? { def: any.def, provider } : undefined;
  if (typeof token !== 'string' || !found)
    throw new ValidationError([
      {
        resource: '',
        field: 'plan',
        path: ['token'],
        code: 'unknown_type',
        message: unknownLookupMessage(token, [...lookups.keys()]),
        ...(typeof token === 'string' ? unknownTypeFacts(token, [...lookups.keys()]) : {}),
      },
    ]);
  // Arguments are checked whole (JSON data, unknown keys, schema, the provider's check) before any request.
  const argIssues = validateLookupArgs(token, found.def, found.provider.config, rawArgs);
  if (argIssues.length) throw new ValidationError(argIssues);
  const parsed = found.def.args.safeParse(rawArgs);
  if (!parsed.success)
    throw new ValidationError(
      parsed.error.issues.map((i: { path: PropertyKey[]; code: string; message: string }) => ({
        resource: token,
        field: 'args' as const,
        path: i.path.map((p: PropertyKey) => (typeof p === 'number' ? p : String(p))),
        code: i.code,
        message: i.message,
      })),
    );
  return { token, found, data: parsed.data };
}
