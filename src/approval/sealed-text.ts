import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { SealKeys } from './seal.js'

// Text sealed at rest (AES-256-GCM under a seal key ring, `docs/deploy.md` "Several instances"):
// the parts of cut results a shared continuation store keeps. The associated data binds each seal
// to the row it belongs in, so a seal copied to another row does not open.

/** Bytes of the random nonce of each seal (the GCM standard size). */
const IV_BYTES = 12
/** Bytes of the authentication tag; a shorter tag is refused. */
const TAG_BYTES = 16

/** One sealed text: the key that sealed it, the nonce, the ciphertext and the tag. */
export interface SealedText {
  readonly key_id: string
  readonly iv: Buffer
  readonly ciphertext: Buffer
  readonly tag: Buffer
}

/** Seals the UTF-8 bytes of `text` with the current key and a fresh nonce, bound to `associated`. */
export function sealText(keys: SealKeys, associated: string, text: string): SealedText {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(associated, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
  return { key_id: keys.current.id, iv, ciphertext, tag: cipher.getAuthTag() }
}

/**
 * Opens a sealed text, failing closed: `seal_key_unknown` for a key ID none of `keys` has (or no
 * keys at all), `seal_invalid` for anything that does not open (a changed ciphertext, nonce, tag or
 * associated data, a seal of another row, a malformed field).
 */
export function openSealedText(keys: SealKeys | undefined, associated: string, sealed: { key_id: unknown; iv: unknown; ciphertext: unknown; tag: unknown }): { ok: true; text: string } | { ok: false; reason: 'seal_key_unknown' | 'seal_invalid' } {
  const { key_id, iv, ciphertext, tag } = sealed
  if (typeof key_id !== 'string') return { ok: false, reason: 'seal_invalid' }
  const key = keys?.byId.get(key_id)
  if (key === undefined) return { ok: false, reason: 'seal_key_unknown' }
  if (!Buffer.isBuffer(iv) || iv.length !== IV_BYTES || !Buffer.isBuffer(tag) || tag.length !== TAG_BYTES || !Buffer.isBuffer(ciphertext)) return { ok: false, reason: 'seal_invalid' }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(associated, 'utf8'))
    decipher.setAuthTag(tag)
    return { ok: true, text: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8') }
  } catch {
    return { ok: false, reason: 'seal_invalid' }
  }
}
