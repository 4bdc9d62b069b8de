// The approval catalog served over stdio with the v2 SDK, for the approval suite's stdio runs.
// Environment: APPROVAL_STATE_KEY (base64, required), APPROVAL_STATE_TTL_MS, PROFILE_ID.
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { createMcpServerFactory } from 'result-views/mcp-v2'
import { approvalDispatcher } from './approval-catalog.js'

const ttl = process.env.APPROVAL_STATE_TTL_MS
serveStdio(
  createMcpServerFactory(approvalDispatcher(), {
    name: 'approvals',
    version: '1.0.0',
    scope: { workspace_id: 'ws_ops', profile_id: process.env.PROFILE_ID ?? 'prof_a' },
    approvalStateKey: Buffer.from(process.env.APPROVAL_STATE_KEY ?? '', 'base64'),
    ...(ttl === undefined ? {} : { approvalStateTtlMs: Number(ttl) }),
  }),
)
