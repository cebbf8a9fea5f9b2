/**
 * The log lines of one callback request: a short escaped reason, and the reference once it is
 * verified. A broken service may put a secret of the credential into its callback, so every
 * line is scrubbed of them (shared/callbacks/hiddenValues.ts) as well.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { hideDeep } from '../../shared/transport/secrets';
import { loggable } from '../../shared/callbacks/loggable';

export interface CallbackLog {
	/** Set once the reference is verified; logged from then on. */
	reference: string | undefined;
	refused(code: number, reason: string): void;
	ignored(reason: string): void;
	warn(message: string): void;
	accepted(api: string, status: string): void;
}

export function callbackLog(
	ctx: IWebhookFunctions,
	sourceAddress: string | undefined,
	hidden: readonly string[],
): CallbackLog {
	const node = ctx.getNode().name;
	const clean = (value: string, maxChars?: number) => loggable(hideDeep(value, hidden), maxChars);
	const meta = (): IDataObject => ({
		node,
		workflowId: ctx.getWorkflow().id,
		reference_no: log.reference === undefined ? undefined : clean(log.reference),
		sourceAddress: sourceAddress === undefined ? undefined : clean(sourceAddress),
	});
	const log: CallbackLog = {
		reference: undefined,
		refused(code, reason) {
			ctx.logger.warn(
				`Payment Gateway Trigger refused a callback (HTTP ${code}): ${clean(reason, 400)}`,
				meta(),
			);
		},
		ignored(reason) {
			ctx.logger.info(`Payment Gateway Trigger ignored a callback: ${clean(reason, 400)}`, meta());
		},
		warn(message) {
			ctx.logger.warn(`Payment Gateway Trigger ${message}`, meta());
		},
		accepted(api, status) {
			ctx.logger.debug(
				`Payment Gateway Trigger accepted a ${api} callback with status ${status}`,
				meta(),
			);
		},
	};
	return log;
}
