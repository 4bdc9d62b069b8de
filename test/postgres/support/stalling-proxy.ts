// A TCP proxy on loopback in front of the run's PostgreSQL that can stop forwarding, as a frozen
// server or a partitioned network looks to its clients: once stalled (by `stall()`, or by the first
// client message containing a given text), nothing is forwarded either way; what was sent waits in
// the proxy and reaches its peer on `thaw()`, closes included, as a thawed server reads its socket.
// `cut()` destroys every connection through it at once, as a dropped network or a killed server does.
// The proxy and its sockets are closed after the file's tests.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net'
import { afterAll, inject } from 'vitest'

export interface StallingProxy {
  readonly port: number
  /** Stops forwarding now. */
  stall(): void
  /** Stops forwarding from the first client message containing `text` on (that message is held too). */
  stallOn(text: string): void
  /** Resolves once forwarding stopped. */
  readonly stalled: Promise<void>
  /** Forwards what was held, and everything after (no longer stalling on `stallOn`'s text); closes held closes. */
  thaw(): void
  /** Destroys every connection through the proxy now, both sides (what was held is dropped); new connections go through. */
  cut(): void
  /** Resolves once every connection through the proxy is closed on both sides. */
  drained(): Promise<void>
}

const proxies: { close(): void }[] = []
afterAll(() => {
  for (const proxy of proxies) proxy.close()
})

export async function startStallingProxy(): Promise<StallingProxy> {
  const target = inject('postgres')
  let stalled = false
  let trigger: string | undefined
  let onStalled!: () => void
  const stalledPromise = new Promise<void>((resolve) => (onStalled = resolve))
  const held: (() => void)[] = []
  const sockets = new Set<Socket>()
  const open = new Set<Promise<void>>()
  const stall = () => {
    stalled = true
    onStalled()
  }
  const forward = (run: () => void) => (stalled ? held.push(run) : run())
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      open.add(new Promise<void>((resolve) => socket.once('close', () => resolve())))
    }
    client.on('data', (chunk: Buffer) => {
      if (!stalled && trigger !== undefined && chunk.includes(trigger)) stall()
      forward(() => upstream.write(chunk))
    })
    upstream.on('data', (chunk: Buffer) => forward(() => client.write(chunk)))
    client.on('close', () => forward(() => upstream.end()))
    upstream.on('close', () => forward(() => client.end()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () => {
    for (const socket of sockets) socket.destroy()
    server.close()
  }
  proxies.push({ close })
  return {
    port: (server.address() as AddressInfo).port,
    stall,
    stallOn: (text) => void (trigger = text),
    cut: () => {
      held.length = 0
      stalled = false
      trigger = undefined
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    },
    stalled: stalledPromise,
    thaw: () => {
      stalled = false
      trigger = undefined
      for (const run of held.splice(0)) run()
    },
    drained: async () => {
      await Promise.all(open)
    },
  }
}
