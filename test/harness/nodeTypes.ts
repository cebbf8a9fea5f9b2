/**
 * The node types a harness run can use, keyed by the type names n8n gives them: our package's
 * nodes as `n8n-nodes-payment-gateway.<description.name>`, a Manual Trigger stub, the harness's
 * own Items node, and any test-only node a test registers.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

export const PACKAGE_NAME = 'n8n-nodes-payment-gateway';
export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const ITEMS_NODE_TYPE = 'harness.items';

interface PackageNode {
	/** From the repository root, without the extension. */
	file: string;
	className: string;
	/** The node's `description.name`, fixed by docs/DEVELOPMENT.md (Stable names); known before loading. */
	name: string;
}

export const PACKAGE_NODES: readonly PackageNode[] = [
	{
		file: 'nodes/PaymentCollection/PaymentCollection.node',
		className: 'PaymentCollection',
		name: 'paymentCollection',
	},
	{ file: 'nodes/Disbursement/Disbursement.node', className: 'Disbursement', name: 'disbursement' },
	{
		file: 'nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node',
		className: 'PaymentGatewayTrigger',
		name: 'paymentGatewayTrigger',
	},
];
const REPOSITORY_ROOT = join(__dirname, '..', '..');

export type AnyNodeType = INodeType | IVersionedNodeType;

/** The type name n8n gives a node of our package; names already holding a dot are kept. */
export function nodeTypeName(nodeType: AnyNodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

export class HarnessNodeTypes implements INodeTypes {
	/** A node type, or how to load it on first use. */
	private readonly types = new Map<string, AnyNodeType | (() => AnyNodeType)>();

	/** Adds (or replaces) a node type; returns the type name workflows must use for it. */
	register(nodeType: AnyNodeType, typeName = nodeTypeName(nodeType)): string {
		this.types.set(typeName, nodeType);
		return typeName;
	}

	/** Adds a node type loaded only when a workflow first asks for it. */
	registerLazy(typeName: string, load: () => AnyNodeType): void {
		this.types.set(typeName, load);
	}

	has(typeName: string): boolean {
		return this.types.has(typeName);
	}

	names(): string[] {
		return [...this.types.keys()];
	}

	getByName(typeName: string): AnyNodeType {
		const entry = this.types.get(typeName);
		if (!entry) {
			throw new Error(`Unknown node type "${typeName}". Known: ${this.names().join(', ')}`);
		}
		if (typeof entry !== 'function') return entry;
		const loaded = entry();
		this.types.set(typeName, loaded);
		return loaded;
	}

	getByNameAndVersion(typeName: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(typeName), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}

	/** A copy with the same types, to add test-only nodes without touching the original. */
	clone(): HarnessNodeTypes {
		const copy = new HarnessNodeTypes();
		for (const [name, entry] of this.types) copy.types.set(name, entry);
		return copy;
	}
}

/** The stub n8n's own test harness uses: passes its input (one empty item) on. */
export class ManualTriggerStub implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: MANUAL_TRIGGER_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Stand-in for n8n-nodes-base.manualTrigger',
		defaults: { name: 'When clicking "Execute workflow"' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * A node that emits fixed items, like a Set or Code node in a user's workflow. The items stay in
 * a closure instead of a parameter, so values that start with `=` are data, not expressions.
 * (n8n calls `execute` with the node context as `this`, hence no class fields.)
 */
export function itemsNode(items: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Items',
			name: ITEMS_NODE_TYPE,
			group: ['transform'],
			version: 1,
			description: 'Emits the items a test gives it',
			defaults: { name: 'Items' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(): Promise<INodeExecutionData[][]> {
			// Every item stems from the single empty item the trigger passed on.
			return [items.map((json) => ({ json: structuredClone(json), pairedItem: { item: 0 } }))];
		},
	};
}

const extraNodeTypes: AnyNodeType[] = [];

/** Adds a node type to every later `defaultNodeTypes()` (e.g. a test-only fixture node). */
export function registerNodeType(nodeType: AnyNodeType): string {
	extraNodeTypes.push(nodeType);
	return nodeTypeName(nodeType);
}

/**
 * The Manual Trigger stub, our package's nodes whose files exist (each loaded on first use, so a
 * test of one node never depends on another node's file) and every type passed to
 * registerNodeType. A node file that exists but fails to load throws when used: a bug to see.
 */
export function defaultNodeTypes(): HarnessNodeTypes {
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.register(new ManualTriggerStub());
	for (const node of PACKAGE_NODES) {
		const path = join(REPOSITORY_ROOT, node.file);
		if (!existsSync(`${path}.ts`) && !existsSync(`${path}.js`)) continue;
		nodeTypes.registerLazy(`${PACKAGE_NAME}.${node.name}`, () => loadPackageNode(path, node));
	}
	for (const nodeType of extraNodeTypes) nodeTypes.register(nodeType);
	return nodeTypes;
}

function loadPackageNode(path: string, { file, className, name }: PackageNode): AnyNodeType {
	// Name the extension: the source when it is there, else the compiled file.
	const source = existsSync(`${path}.ts`) ? `${path}.ts` : `${path}.js`;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the node file is chosen at run time
	const loaded = require(source) as Record<string, new () => AnyNodeType>;
	const NodeClass = loaded[className];
	if (typeof NodeClass !== 'function')
		throw new Error(`${file} does not export a class named ${className}`);
	const nodeType = new NodeClass();
	if (nodeType.description.name !== name) {
		throw new Error(
			`${file} names its node "${nodeType.description.name}"; workflows expect "${name}" (docs/DEVELOPMENT.md, Stable names)`,
		);
	}
	return nodeType;
}
