import { describe, expect, it } from 'vitest'
import { createMemoryApprovalStores } from 'result-views'
import { describeApprovalStoreConformance } from 'result-views/testing'

describeApprovalStoreConformance('memory stores', () => createMemoryApprovalStores(), { describe, it, expect })
