import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'
import { types } from 'node:util'
import type { ToolError } from '../errors/tool-error.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { firstHole } from '../json/guards.js'
import { sealedInputRefused } from './errors.js'
import type { SealedInput } from './stores.js'

// Sealed pending inputs (`docs/approvals.md` "Sealed pending inputs"): with `approvals.sealKey`, a
// pending approval whose call has sensitive input fields carries the real input encrypted with
// AES-256-GCM under the host's key, bound to its approval ID, tool ID and input digest as
// associated data (see {@link SealBinding}), so any process
// holding the key can run the approved call on the real input. The clear value never reaches
// the record: the record's `input` stays redacted.

/** The one algorithm a sealed input names. */
export const SEAL_ALGORITHM = 'AES-256-GCM'
/** Bytes of a seal key (AES-256). */
export const SEAL_KEY_BYTES = 32
/** Bytes of the random nonce of each seal (the GCM standard size). */
const IV_BYTES = 12
/** Bytes of the authentication tag; a shorter tag is refused. */
const TAG_BYTES = 16
/** The label the key ID is an HMAC of: the ID names a key without revealing it. */
const KEY_ID_LABEL = 'result-views sealed input key id'
/** The associated data of a seal is this prefix followed by the JSON text of its {@link SealBinding}. */
const AAD_PREFIX = 'result-views sealed input v2\n'

const BASE64URL = /^[A-Za-z0-9_-]*$/
const KEY_ID = /^[0-9a-f]{16}$/

/** A seal key, held as a `KeyObject` (it never prints), with its key ID. */
export interface SealKey {
  readonly id: string
  readonly key: KeyObject
}

/** The keys of one dispatcher: `current` seals, every key (current first) opens. */
export interface SealKeys {
  readonly current: SealKey
  readonly byId: ReadonlyMap<string, SealKey>
}

/**
 * Reads `approvals.sealKey` and `approvals.previousSealKeys`, pushing one problem per bad value
 * (`invalid_seal_key`, `seal_key_missing`) at its JSON Pointer. Each key is copied, so a host that
 * changes its buffer afterwards changes nothing here.
 *
 * @returns the keys, `undefined` when neither option is given or a problem was found.
 */
export function resolveSealKeys(sealKey: unknown, previous: unknown, problems: UsageProblem[]): SealKeys | undefined {
  return resolveKeyRing(sealKey, previous, SEAL_KEY_RING, problems)
}

/** How one option pair of secret keys is named, sized and told about (see {@link resolveKeyRing}). */
export interface KeyRingSpec {
  /** JSON Pointer of the current key, e.g. `/approvals/sealKey`. */
  readonly path: string
  /** JSON Pointer of the older keys, e.g. `/approvals/previousSealKeys`. */
  readonly previousPath: string
  /** The problem code of a bad key. */
  readonly invalidCode: string
  /** The problem code of older keys without a current one. */
  readonly missingCode: string
  /** Least bytes of a key. */
  readonly minBytes: number
  /** Most bytes of a key (`minBytes` for a fixed size). */
  readonly maxBytes: number
  /** What a bad key must be, e.g. "a seal key must be a Uint8Array (a Buffer) of 32 bytes, ...". */
  readonly sizeMessage: string
  /** Said of a key of zero bytes only. */
  readonly zeroMessage: string
  /** Said of older keys without a current one. */
  readonly missingMessage: string
  /** Said of older keys that are not an array. */
  readonly arrayMessage: string
  /** The label the key ID is an HMAC of (a key ID names a key without revealing it). */
  readonly idLabel: string
}

/**
 * The key ring of seal keys given at `<at>/sealKey` and `<at>/previousSealKeys` (JSON Pointers of
 * the options object): the same checks and messages, and the same key IDs, wherever a key seals.
 */
export function sealKeyRingAt(at: string): KeyRingSpec {
  return {
    path: `${at}/sealKey`,
    previousPath: `${at}/previousSealKeys`,
    invalidCode: 'invalid_seal_key',
    missingCode: 'seal_key_missing',
    minBytes: SEAL_KEY_BYTES,
    maxBytes: SEAL_KEY_BYTES,
    sizeMessage: `a seal key must be a Uint8Array (a Buffer) of ${SEAL_KEY_BYTES} bytes, e.g. Buffer.from(process.env.SEAL_KEY, 'base64') or randomBytes(32)`,
    zeroMessage: 'a seal key must be 32 random bytes, not 32 zero bytes',
    missingMessage: 'previousSealKeys only open older seals: give the key that seals new ones as sealKey',
    arrayMessage: 'previousSealKeys must be an array of 32-byte Uint8Arrays',
    idLabel: KEY_ID_LABEL,
  }
}

const SEAL_KEY_RING: KeyRingSpec = sealKeyRingAt('/approvals')

/**
 * Reads a current secret key and its older ones (key rotation: the current key makes, every key
 * checks), pushing one problem per bad value at its JSON Pointer. Each key is copied into a
 * `KeyObject`, so a host that changes its buffer afterwards changes nothing here; hostile values
 * (a Proxy, a throwing getter, holes) are problems, never the host's own error.
 *
 * @returns the keys, `undefined` when no current key is given or a problem was found.
 */
export function resolveKeyRing(current: unknown, previous: unknown, spec: KeyRingSpec, problems: UsageProblem[]): SealKeys | undefined {
  const before = problems.length
  const first = current === undefined ? undefined : keyOf(current, spec.path, spec, problems)
  const older: SealKey[] = []
  if (previous !== undefined) {
    if (current === undefined) problems.push({ path: spec.previousPath, code: spec.missingCode, message: spec.missingMessage })
    // Read inside a guard: a Proxy or getter that throws (a revoked Proxy throws even in
    // `Array.isArray`) is an `unreadable_option` problem, never the host's own error.
    let path = spec.previousPath
    try {
      if (!Array.isArray(previous)) {
        problems.push({ path, code: spec.invalidCode, message: spec.arrayMessage })
      } else {
        const hole = firstHole(previous)
        if (hole !== -1) {
          problems.push({ path: `${path}/${hole}`, code: spec.invalidCode, message: `${spec.previousPath.slice(spec.previousPath.lastIndexOf('/') + 1)} must not have holes` })
        } else {
          // Each element read once (a getter runs once).
          const length = previous.length
          for (let i = 0; i < length; i++) {
            path = `${spec.previousPath}/${i}`
            const key = keyOf(previous[i], path, spec, problems)
            if (key !== undefined) older.push(key)
          }
        }
      }
    } catch {
      problems.push({ path, code: 'unreadable_option', message: `${spec.previousPath.slice(spec.previousPath.lastIndexOf('/') + 1)} could not be read (a getter or a Proxy threw)` })
    }
  }
  if (first === undefined || problems.length > before) return undefined
  const byId = new Map<string, SealKey>()
  for (const key of [first, ...older]) if (!byId.has(key.id)) byId.set(key.id, key)
  return { current: first, byId }
}

function keyOf(value: unknown, path: string, spec: KeyRingSpec, problems: UsageProblem[]): SealKey | undefined {
  // `isUint8Array` reads no property (a Proxy is not one), so nothing of a hostile value runs.
  if (!types.isUint8Array(value) || value.byteLength < spec.minBytes || value.byteLength > spec.maxBytes) {
    problems.push({ path, code: spec.invalidCode, message: spec.sizeMessage })
    return undefined
  }
  const bytes = Buffer.from(value)
  if (bytes.every((byte) => byte === 0)) {
    problems.push({ path, code: spec.invalidCode, message: spec.zeroMessage })
    return undefined
  }
  const key = createSecretKey(bytes)
  bytes.fill(0)
  return { id: createHmac('sha256', key).update(spec.idLabel, 'utf8').digest('hex').slice(0, 16), key }
}

/**
 * What a seal is bound to (its associated data): the pending record's `approval_id`, `tool_id` and
 * `input_digest`. A seal copied to another approval, or a record whose tool or input digest was
 * changed in the store, does not open (`seal_invalid`).
 */
export interface SealBinding {
  readonly approval_id: string
  readonly tool_id: string
  readonly input_digest: string
}

function associatedData(binding: SealBinding): Buffer {
  return Buffer.from(AAD_PREFIX + JSON.stringify([binding.approval_id, binding.tool_id, binding.input_digest]), 'utf8')
}

/**
 * Seals the input of a call (plain JSON, as sent) for the pending approval `binding` names, with
 * the current key and a fresh random nonce.
 */
export function sealInput(keys: SealKeys, binding: SealBinding, input: unknown): SealedInput {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(associatedData(binding))
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(input), 'utf8'), cipher.final()])
  return {
    alg: SEAL_ALGORITHM,
    key_id: keys.current.id,
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  }
}

/**
 * Opens the sealed input of the pending approval `binding` names, failing closed: a key ID none of
 * `keys` has (or no keys at all) is `approval_unavailable` / `seal_key_unknown`; anything else
 * that does not open (a changed ciphertext, nonce or tag, a seal copied from another approval, so
 * other associated data, a record whose `tool_id` or `input_digest` changed, a malformed field) is
 * `approval_unavailable` / `seal_invalid`.
 *
 * @returns the real input as sent, or the error.
 */
export function openSealedInput(keys: SealKeys | undefined, binding: SealBinding, sealed: unknown): { ok: true; input: unknown } | { ok: false; error: ToolError } {
  const refuse = (reason: 'seal_key_unknown' | 'seal_invalid', keyId?: string) => ({ ok: false as const, error: sealedInputRefused(binding.approval_id, reason, keyId) })
  if (typeof sealed !== 'object' || sealed === null || Array.isArray(sealed)) return refuse('seal_invalid')
  // A store's answer is a checked plain JSON copy (`callStore`), so reading its fields runs nothing.
  const { alg, key_id, iv, ciphertext, tag } = sealed as Record<string, unknown>
  if (alg !== SEAL_ALGORITHM || typeof key_id !== 'string' || !KEY_ID.test(key_id)) return refuse('seal_invalid')
  const key = keys?.byId.get(key_id)
  if (key === undefined) return refuse('seal_key_unknown', key_id)
  const [ivBytes, data, tagBytes] = [iv, ciphertext, tag].map(base64url)
  if (ivBytes?.length !== IV_BYTES || data === undefined || tagBytes?.length !== TAG_BYTES) return refuse('seal_invalid', key_id)
  let text: string
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, ivBytes, { authTagLength: TAG_BYTES })
    decipher.setAAD(associatedData(binding))
    decipher.setAuthTag(tagBytes)
    text = Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8')
  } catch {
    return refuse('seal_invalid', key_id)
  }
  try {
    return { ok: true, input: JSON.parse(text) }
  } catch {
    // Authenticated, so written by a holder of the key: still, never run on it.
    return refuse('seal_invalid', key_id)
  }
}

/** Strict base64url: `undefined` for a non-string or any character outside the alphabet (Node's decoder would skip it). */
function base64url(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return undefined
  const bytes = Buffer.from(value, 'base64url')
  return bytes.toString('base64url') === value ? bytes : undefined
}
