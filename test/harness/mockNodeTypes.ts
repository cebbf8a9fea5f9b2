/**
 * Node types n8n's server uses outside workflows: a property-less `mock` node to resolve
 * credential expressions, and, per credential test, a copy of the No-Op node whose only
 * parameter routes the credential type's `test.request`.
 */
import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/** The type the server's preAuthentication recognises as "a credential test is running". */
export const CREDENTIAL_TEST_NODE_TYPE = 'n8n-nodes-base.noOp';

const mockNodeType = { description: { properties: [] } } as unknown as INodeType;

export const mockNodeTypes: INodeTypes = {
	getKnownTypes: (): IDataObject => ({}),
	getByName: (): INodeType => mockNodeType,
	getByNameAndVersion: (): INodeType => mockNodeType,
};

/** Node types holding just one node type, as the credential tester builds them. */
export function singleNodeTypes(name: string, nodeType: INodeType): INodeTypes {
	const find = (requested: string): INodeType | IVersionedNodeType => {
		if (requested !== name) throw new Error(`Unknown node type "${requested}"`);
		return nodeType;
	};
	return {
		getKnownTypes: (): IDataObject => ({}),
		getByName: find,
		getByNameAndVersion: (requested: string, version?: number) =>
			NodeHelpers.getVersionedNodeType(find(requested), version),
	};
}
