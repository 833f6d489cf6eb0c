// An object as the simulator keeps and answers it: the vendor's JSON, snake_case keys, any shape the
// routes give it (the provider's client reads it through the typed schemas of ../wire/objects.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Wire = Record<string, any>;
