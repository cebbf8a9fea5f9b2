/**
 * The trigger's answers to the service. Every request is answered here, through the response
 * object, and n8n adds nothing (`noWebhookResponse`).
 *
 * An accepted callback is answered here too, rather than by n8n's "Respond: Immediately", because
 * of where n8n saves the workflow's static data (the duplicate record, helpers/duplicates.ts): when
 * the answer is handed back, and only if the data is still marked changed. n8n 2.x sends its own
 * answer only after it has handed the execution to its runner, which builds a second workflow on
 * the same static data and so clears that mark: no callback after the first was ever saved.
 * Answered here, n8n saves the record first and then starts the execution. The price: the 200
 * goes out a moment before n8n has stored the execution (docs/trigger.md, When the 200 goes out).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Answers the request; without workflowData n8n then starts nothing. */
export function reply(ctx: IWebhookFunctions, code: number, message: string): IWebhookResponseData {
	const response = ctx.getResponseObject();
	response.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}

/** Answers 200 as n8n's webhooks do, and starts the workflow with `item`. */
export function accept(ctx: IWebhookFunctions, item: IDataObject): IWebhookResponseData {
	return { ...reply(ctx, 200, 'Workflow was started'), workflowData: [[{ json: item }]] };
}
