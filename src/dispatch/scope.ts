/**
 * The scope of a call (DESIGN.md glossary): which workspace, session, agent and profile it runs
 * for. Every field is optional; policies, grants and tokens compare them exactly (an absent field
 * matches only an absent field).
 */
export interface CallScope {
  workspace_id?: string
  session_id?: string
  agent_name?: string
  profile_id?: string
}
