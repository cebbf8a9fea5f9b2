/**
 * n8n's own parameter helpers, from the n8n-workflow the package builds against and from every n8n
 * installed under .n8n-app/ (the versions the end-to-end check runs), to check a node description
 * the way each of them resolves it.
 */
import { existsSync, readdirSync } from 'fs';
import { join } from 'path';
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';

export type Helpers = Pick<
	typeof n8nWorkflow.NodeHelpers,
	'getNodeParameters' | 'displayParameter'
>;

/** A module found at run time: an installed n8n's own copy, or a build in dist/. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadAtRunTime = (path: string): unknown => require(path);

const APPS = join(__dirname, '..', '..', '.n8n-app');

/** [label, NodeHelpers] for the package's n8n-workflow and each installed n8n's own. */
export const implementations: Array<[string, Helpers]> = [
	['n8n-workflow (package)', n8nWorkflow.NodeHelpers],
];
for (const app of existsSync(APPS)
	? readdirSync(APPS).filter((name) => name.startsWith('n8n-'))
	: []) {
	const path = join(APPS, app, 'node_modules/n8n-workflow');
	if (!existsSync(path)) continue;
	implementations.push([
		`n8n-workflow of ${app}`,
		(loadAtRunTime(path) as typeof n8nWorkflow).NodeHelpers,
	]);
}

/** A workflow node of the described type and version, holding `parameters`. */
export function nodeOf(
	description: INodeTypeDescription,
	typeVersion: number,
	parameters: INodeParameters = {},
): INode {
	return {
		id: description.name,
		name: description.displayName,
		type: description.name,
		typeVersion,
		position: [0, 0],
		parameters,
	};
}

/** The parameters n8n runs a node with: its stored values, every other shown one at its version's default. */
export function resolvedParameters(
	helpers: Helpers,
	description: INodeTypeDescription,
	typeVersion: number,
	stored: INodeParameters = {},
): INodeParameters {
	return helpers.getNodeParameters(
		description.properties,
		stored,
		true,
		false,
		nodeOf(description, typeVersion, stored),
		description,
	)!;
}
