// The resolve hook registered by resolve-aliases.mjs: `<from>` and `<from>/<sub>` resolve as
// `<to>` and `<to>/<sub>`, where `<to>` is either a package name or an absolute file URL.
let aliases = {}

export function initialize(data) {
  aliases = data
}

export function resolve(specifier, context, next) {
  for (const [from, to] of Object.entries(aliases)) {
    if (specifier === from) return next(to, context)
    if (specifier.startsWith(`${from}/`) && !to.startsWith('file:')) return next(to + specifier.slice(from.length), context)
  }
  return next(specifier, context)
}
