// engine.lookup()'s gate: the call's token must name a lookup of this engine and its arguments must
// be valid (JSON data, no unknown keys, the schema, the provider's check), all before any request.
import type { AnyLookup, Provider } from './provider/define.js';
import type { LookupCall } from './decl/helper.js';
import { unknownLookupMessage, unknownTypeFacts, validateLookupArgs } from './validate/validate.js';
import { ValidationError } from './errors.js';

type Served = { readonly def: AnyLookup; readonly provider: Provider<unknown> };

/** The lookup a call names and its parsed arguments; throws one ValidationError with every problem. */
export function checkedLookup(
  lookups: ReadonlyMap<string, Served>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any helper's call, whatever its argument type
  call: string | LookupCall<any, unknown>,
  args: Record<string, unknown> | undefined,
): { token: string; found: Served; data: unknown } {
  const token = typeof call === 'string' ? call : (call as { token?: string } | null)?.token;
  const rawArgs = typeof call === 'string' ? (args ?? {}) : ((call as { args?: unknown } | null)?.args ?? {});
  const found = typeof token === 'string' ? lookups.get(token) : undefined;
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
