// The string formats the Gcore request schemas are checked for: JSON Schema's own (ajv-formats)
// and the spec's `uuid4` and `domain`. Shared by the generator, which drops every other format the specs write
// (descriptive ones such as 'nginx time') and names them, and by the checker, which defines these.
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** Formats the spec writes that are not JSON Schema's own, defined as the spec's text describes them. */
export const SPEC_FORMATS: Readonly<Record<string, RegExp>> = {
  uuid4: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i,
  /** A host name of two labels or more (CDN secondary hostnames, a custom SNI host name). */
  domain: /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i,
};

/** Every format a generated schema may keep. */
export const CHECKED_FORMATS: readonly string[] = [...Object.keys(fullFormats), ...Object.keys(SPEC_FORMATS)];
