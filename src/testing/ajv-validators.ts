import { Ajv, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import type { JsonSchema } from 'result-views'

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, which is the
// plugin itself at run time and `{ default: plugin }` to the type checker. Accept both.
type FormatsPlugin = (ajv: Ajv) => Ajv
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin)

/** A fresh ajv instance as this library validates with: `strict: false`, `allErrors: true`, `ownProperties: true`, ajv-formats. */
export function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, ownProperties: true })
  addFormats(ajv)
  return ajv
}

const compiled = new WeakMap<object, ValidateFunction>()

/**
 * The ajv validator of `schema`, compiled once per schema object (cached weakly). Each schema
 * gets its own ajv instance, since ajv throws on a duplicate `$id` across schemas of one instance.
 */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema)
  if (validate === undefined) {
    validate = createAjv().compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}
