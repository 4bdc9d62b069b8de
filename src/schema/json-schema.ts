/**
 * A JSON Schema object as this library reads it: plain JSON (TypeBox 1.x schemas are accepted;
 * their hidden non-enumerable keys are ignored). Keywords used: `type`, `properties`, `required`,
 * `additionalProperties`, `patternProperties`, `items`, `prefixItems`, `enum`, `const`, `anyOf`,
 * `oneOf`, `allOf`, `$ref`, `$defs`, `$id`, and the value constraints (`minimum`, `pattern`, ...).
 */
export type JsonSchema = { readonly [keyword: string]: unknown }
