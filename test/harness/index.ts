/** The test harness: run our nodes inside n8n's own engine against local HTTP servers. */
export * from './credentials';
export { runNode, runWorkflow } from './engine';
export type {
	NodeRunError,
	NodeRunResult,
	RunNodeOptions,
	RunWorkflowOptions,
	WorkflowNode,
	WorkflowRunResult,
} from './engine';
export { listSearch, loadOptions } from './editorRequests';
export type { LoadOptionsOptions } from './editorRequests';
export { capturedLogs } from './logging';
export type { LogLine } from './logging';
export {
	HarnessNodeTypes,
	ITEMS_NODE_TYPE,
	MANUAL_TRIGGER_TYPE,
	PACKAGE_NAME,
	PACKAGE_NODES,
	defaultNodeTypes,
	nodeTypeName,
	registerNodeType,
} from './nodeTypes';
export type { AnyNodeType } from './nodeTypes';
export { HARNESS_URLS } from './additionalData';
export { MIN_SECRET_LENGTH, SecretLeakError, scannedCount, secretsOf } from './secretGuard';
export type { SecretFigures } from './secretGuard';
