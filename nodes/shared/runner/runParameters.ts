/**
 * Parameters read once per run. A parameter stored without an expression has the same value for
 * every item, so it is read for the first item that asks and kept for the rest of the run; one
 * with an expression is still read per item, as n8n would, so a workflow behaves the same.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

interface RunValues {
	/** The node's stored parameters (n8n copies the node on every getNode()). */
	stored: unknown;
	values: Map<string, unknown>;
	/** Parameter paths whose stored value holds an expression. */
	perItem: Map<string, boolean>;
}

const perRun = new WeakMap<object, RunValues>();

/** Whether a stored value, or anything inside it, is an n8n expression ("={{ ... }}"). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** The stored value at a parameter path such as `options.timeoutSeconds`, or at its first expression. */
function storedAt(parameters: unknown, path: string): unknown {
	let value = parameters;
	for (const key of path.split('.')) {
		if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/** `ctx.getNodeParameter(name, itemIndex, fallback)`, evaluated once per run when it cannot differ per item. */
export function runParameter(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	let run = perRun.get(ctx);
	if (!run) {
		run = { stored: ctx.getNode().parameters, values: new Map(), perItem: new Map() };
		perRun.set(ctx, run);
	}
	let perItem = run.perItem.get(name);
	if (perItem === undefined) {
		perItem = holdsExpression(storedAt(run.stored, name));
		run.perItem.set(name, perItem);
	}
	if (perItem) return ctx.getNodeParameter(name, itemIndex, fallback);
	const key = `${name}\u0000${JSON.stringify(fallback) ?? ''}`;
	if (run.values.has(key)) return run.values.get(key);
	const value = ctx.getNodeParameter(name, itemIndex, fallback);
	run.values.set(key, value);
	return value;
}
