/**
 * Display conditions by node version (n8n's light versioning, `@version`), for every node that
 * shows a parameter only on some of its versions.
 */
export const IN_VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** The name of the output that holds a run's summary alone, where a node version declares one. */
export const SUMMARY_OUTPUT = 'Summary';

/**
 * The outputs of a node whose versions from `from` on give a run's summary an output of its own:
 * "Rows" (one item per input row) and "Summary" (one item) for Reconcile and for a Check Only (Payout
 * > Create's Mode, Generate's Dry Run) and a batch's Payout > Confirm, or one set by an expression, which may turn out Check Only;
 * one output otherwise. Earlier versions keep the summary after the rows on their one output, as stored
 * workflows expect. n8n evaluates this with the node's version and parameters, as it does for its
 * own Respond to Webhook node, and the runner puts the summary apart exactly when it declares the
 * Summary output (runner/router.ts). Written as text, so that nothing compiled into a function (a
 * coverage counter) reaches the expression.
 */
export function summaryOutputs(from: number): `={{${string}}}` {
	// Check Only: Payout > Create's Mode; Generate's Options > Dry Run (on, or an expression).
	const dryRun = '($parameter.options || {}).dryRun';
	const summarizes = `$parameter.operation === "reconcile" || ($parameter.operation === "confirm" && $parameter.approvalScope === "batch") || ($parameter.operation === "create" && $parameter.runMode !== undefined && $parameter.runMode !== "pay") || ($parameter.operation === "generate" && ${dryRun} !== undefined && ${dryRun} !== false)`;
	const both = `[{ "type": "main", "displayName": "Rows" }, { "type": "main", "displayName": "${SUMMARY_OUTPUT}" }]`;
	return `={{ $nodeVersion >= ${from} && (${summarizes}) ? ${both} : ["main"] }}`;
}
