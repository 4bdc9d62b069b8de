import { BlockList, isIP } from 'node:net'

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** The last address asked about and its answer: the peers of a listener repeat, and `BlockList.check` costs microseconds. */
let lastAddress: string | undefined
let lastAnswer = false

/**
 * Whether a peer address is loopback: IPv4 127.0.0.0/8, IPv6 `::1` (any spelling), or an
 * IPv4-mapped loopback address (`::ffff:127.x.y.z`). Anything that is not an IP address
 * (`localhost`, `[::1]`, `''`) is not.
 */
export function isLoopbackAddress(address: unknown): boolean {
  if (typeof address !== 'string') return false
  if (address === lastAddress) return lastAnswer
  const answer = checkLoopback(address)
  lastAddress = address
  lastAnswer = answer
  return answer
}

function checkLoopback(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  try {
    return loopback.check(address, family === 6 ? 'ipv6' : 'ipv4')
  } catch {
    return false
  }
}
