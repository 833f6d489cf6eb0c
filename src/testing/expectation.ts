// What the matchers take, typed: a target (an address, or the declaration a typed helper made), the
// input paths of that declaration (a misspelt path does not compile), and each matcher's options.
import type { TypedDecl } from '../engine/decl/helper.js';
import type { Step } from '../engine/plan/step.js';
import type { DriftEntry } from '../engine/plan/drift.js';

/** What the matchers read of a plan: its steps and drift (a `Plan`, or anything shaped like one). */
export type PlanLike = {
  /** The plan's steps. */
  readonly steps: readonly Step[];
  /** What refresh found changed outside converge. */
  readonly drift?: readonly DriftEntry[];
};

type Scalar = string | number | boolean | bigint | symbol | null | undefined | Date;
type IsAny<T> = 0 extends 1 & T ? true : false;
type Depth = [never, 0, 1, 2, 3, 4];

/** The rest of a path below a value of type V: `.key...` into an object, `[i]...` into a list. */
type Below<V, D extends number> = [D] extends [never]
  ? never
  : IsAny<V> extends true
    ? `.${string}` | `[${string}]`
    : V extends Scalar
      ? never
      : V extends readonly (infer E)[]
        ? `[${number}]` | `[${string}]` | `[${number}]${Below<NonNullable<E>, Depth[D]>}`
        : V extends object
          ? string extends keyof V
            ? `.${string}` | `[${string}]`
            : `.${PathIn<V, Depth[D]>}`
          : never;

/** The paths inside an object type: `size`, `rules[0]`, `rules[0].cidr`, `tags.env` (four levels deep). */
type PathIn<T, D extends number = 4> = [D] extends [never]
  ? never
  : { [K in Extract<keyof T, string>]: K | `${K}${Below<NonNullable<T[K]>, D>}` }[Extract<keyof T, string>];

/** An input path of a declaration with inputs I (as plans print them: `rules[0].cidr`); any string for an untyped one. */
export type InputPath<I> = IsAny<I> extends true ? string : unknown extends I ? string : PathIn<I>;

/** The inputs type of a typed helper's declaration. */
export type InputsOf<D> = D extends TypedDecl<infer I, infer _O> ? I : unknown;

/** The resource a matcher is about: its address, or the declaration a typed helper made. */
export type Target = string | { readonly name: string };

/** A pattern for the inputs a step declares: plain values match partially (deep), `match.*` patterns judge themselves. */
export type InputsPattern<I> = unknown extends I
  ? Readonly<Record<string, unknown>>
  : { readonly [K in keyof I]?: unknown } & Readonly<Record<string, unknown>>;

/** `toCreate`'s other form: any created resource of this type whose inputs match. */
export type CreateQuery = {
  /** The type token, e.g. `provb:index/instance:Instance`. */
  readonly type: string;
  /** A pattern its inputs match. */
  readonly inputs?: Readonly<Record<string, unknown>>;
};

/** Options of `toCreate(target, ...)`. */
export type CreateExpectation<I = unknown> = {
  /** A pattern the declared inputs match. */
  readonly inputs?: InputsPattern<I>;
};

/** Options of `toUpdate(target, ...)`. */
export type UpdateExpectation<I = unknown> = {
  /** The input paths that change, exactly (each changed path is one of these or below one). */
  readonly paths?: readonly InputPath<I>[];
  /** A pattern the declared inputs match. */
  readonly inputs?: InputsPattern<I>;
};

/** Why a step is a replacement when no input path forces it. */
export type ReplaceCause = 'replace_requested' | 'type_changed' | 'tainted';

/** Options of `toReplace(target, ...)`. */
export type ReplaceExpectation<I = unknown> = {
  /** The input paths that force it (each among the step's reasons), or the cause (`replace_requested`, `type_changed`, `tainted`). */
  readonly because?: InputPath<I> | ReplaceCause | readonly (InputPath<I> | ReplaceCause)[];
  /** A pattern the declared inputs match. */
  readonly inputs?: InputsPattern<I>;
};

/** Options of `toHaveDrift(target?, ...)`. */
export type DriftExpectation<I = unknown> = {
  /** The input paths found changed outside converge, exactly. */
  readonly paths?: readonly InputPath<I>[];
  /** `update`: changed outside converge; `delete`: deleted outside converge. */
  readonly action?: 'update' | 'delete';
};
