/**
 * A hand-made execution context for the unit tier (test/shared/**\/X.test.ts): no n8n engine, only
 * what the runner's functions read of n8n's `IExecuteFunctions`: the node (`getNode()`), its input
 * items (`getInputData()`) and parameter values (`getNodeParameter()`), each read recorded. And the
 * node error a read throws, so its message, hint, row and run stop can be checked.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A node as n8n hands it to a function: a Payout node of version 2 with no parameters, unless told. */
export function testNode(overrides: Partial<INode> = {}): INode {
	return {
		id: 'payout-1',
		name: 'Payout',
		type: 'disbursement',
		typeVersion: 2,
		position: [0, 0],
		parameters: {},
		...overrides,
	};
}

export interface HandMadeContextSpec {
	/** The node's stored parameters: what `getNode().parameters` holds (expressions unevaluated). */
	parameters?: Record<string, unknown>;
	/**
	 * Per parameter path (`options.dryRun`), the value each row gets, as an expression evaluated by
	 * n8n would give it (undefined too). A path not here is read from `parameters`, the same for
	 * every row, or is the fallback when not stored.
	 */
	perRow?: Record<string, unknown[]>;
	/** The input items; by default one empty item per row of `perRow` (at least one). */
	items?: IDataObject[];
	typeVersion?: number;
}

export interface HandMadeContext {
	ctx: IExecuteFunctions;
	node: INode;
	/** Every `getNodeParameter` call, as [path, itemIndex], in order. */
	reads: Array<[string, number]>;
}

/** The stored value at a dotted parameter path, or undefined. */
function at(parameters: unknown, path: string): unknown {
	let value = parameters;
	for (const key of path.split('.')) {
		if (!value || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

export function handMadeContext(spec: HandMadeContextSpec = {}): HandMadeContext {
	const { parameters = {}, perRow = {}, typeVersion = 2 } = spec;
	const node = testNode({ parameters: parameters as INode['parameters'], typeVersion });
	const rows = Math.max(1, ...Object.values(perRow).map((values) => values.length));
	const items: INodeExecutionData[] = (spec.items ?? Array.from({ length: rows }, () => ({}))).map(
		(json) => ({ json }),
	);
	const reads: Array<[string, number]> = [];
	const ctx = {
		getNode: () => node,
		getInputData: () => items,
		getNodeParameter: (path: string, itemIndex: number, fallback?: unknown) => {
			reads.push([path, itemIndex]);
			// As n8n: the fallback stands in for a parameter not stored, not for an expression's result.
			if (path in perRow) return perRow[path][itemIndex];
			const stored = at(parameters, path);
			return stored === undefined ? fallback : stored;
		},
	} as unknown as IExecuteFunctions;
	return { ctx, node, reads };
}

/** The NodeOperationError `read` throws; anything else thrown is rethrown, and no error fails the test. */
export function nodeErrorOf(read: () => unknown): NodeOperationError {
	try {
		read();
	} catch (error) {
		if (error instanceof NodeOperationError) return error;
		throw error;
	}
	throw new Error('no error was thrown');
}
