/**
 * The "Simplify" option: the handful of fields a person or an AI agent acts on, instead of the
 * full record (a generated transaction alone has about twenty fields, one a Markdown text). The
 * option is described here; the runner applies it (shared/runner/simplifyOutput.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

/**
 * The option, on by default when the node runs as an AI agent's tool (n8n names the tool variant
 * of a node `<name>Tool`, which `@tool` tests), off otherwise so workflows get the full record.
 */
export function simplifyProperties(show: Record<string, string[]>): INodeProperties[] {
	const description =
		'Whether to return only reference_no, status, amount, channel, the payment link or payout ID and replayed, instead of the full record';
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description,
			displayOptions: { show: { ...show, '@tool': [true] } },
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description,
			displayOptions: { show: { ...show, '@tool': [false] } },
		},
	];
}
