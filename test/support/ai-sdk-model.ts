// The offline AI SDK model the tests drive: the same scripted MockLanguageModelV3 as the examples.
export { scriptedModel, toolResultsShown, type ModelTurn } from '../../examples/mock-model.js'
