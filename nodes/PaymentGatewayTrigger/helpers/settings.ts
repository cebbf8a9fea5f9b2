/**
 * The trigger's settings, read strictly. Any parameter may be set by an expression, which can
 * yield anything: a value the trigger cannot read is an error (activation fails; a callback is
 * answered 500, so the sender retries), never a guess. The text "false" is truthy, and must not
 * switch on Accept Unsigned Callbacks.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { STATUSES, type Status } from '../../shared/validation/schemas';

type TriggerContext = IWebhookFunctions | IHookFunctions;

/**
 * The default of Confirm With Service in a node version: on from version 2. n8n's lint wants the
 * defaults in confirmProperties.ts as literals; test/trigger/versionDefaults.test.ts keeps the two
 * in step.
 */
export function confirmsByDefault(typeVersion: number): boolean {
	return typeVersion !== 1;
}

export interface TriggerSettings {
	statuses: Status[];
	confirm: boolean;
	acceptUnsigned: boolean;
	allowText: string;
}

export function triggerSettings(ctx: TriggerContext): TriggerSettings {
	const statuses = ctx.getNodeParameter('statuses', ['completed', 'cancelled']);
	if (
		!Array.isArray(statuses) ||
		!statuses.every((status) => (STATUSES as readonly unknown[]).includes(status))
	) {
		throw unreadable(ctx, `Statuses must be a list of ${oneOf(STATUSES)}`);
	}
	const allowText = ctx.getNodeParameter('allowedIpAddresses', '');
	if (typeof allowText !== 'string') throw unreadable(ctx, 'Allowed IP Addresses must be text');
	return {
		statuses: statuses as Status[],
		// n8n fills in the version's default; should it not, the fallback is that same default.
		confirm: booleanSetting(
			ctx,
			'confirmWithService',
			'Confirm With Service',
			confirmsByDefault(ctx.getNode().typeVersion),
		),
		acceptUnsigned: booleanSetting(
			ctx,
			'acceptUnsignedCallbacks',
			'Accept Unsigned Callbacks (Unsafe)',
			false,
		),
		allowText,
	};
}

/** One of the `allowed` values of an options parameter. */
export function optionSetting<T extends string>(
	ctx: TriggerContext,
	name: string,
	label: string,
	allowed: readonly T[],
	fallback: T,
): T {
	const value = ctx.getNodeParameter(name, fallback);
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	throw unreadable(ctx, `${label} must be ${oneOf(allowed)}`);
}

function booleanSetting(
	ctx: TriggerContext,
	name: string,
	label: string,
	fallback: boolean,
): boolean {
	const value = ctx.getNodeParameter(name, fallback);
	if (typeof value === 'boolean') return value;
	throw unreadable(
		ctx,
		`${label} must be true or false, not ${typeof value === 'string' ? 'text' : typeof value}`,
	);
}

/** "a, b or c". */
function oneOf(values: readonly string[]): string {
	return values.length > 1
		? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`
		: values.join('');
}

function unreadable(ctx: TriggerContext, problem: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${problem}: set it without an expression`);
}
