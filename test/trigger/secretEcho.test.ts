/**
 * A broken service that puts a secret into its callback (the Signing Secret, the merchant's
 * password) must not carry it into the workflow's item, the answer or a log line. The harness's
 * secret guard scans each of them; the item shows where something was hidden, also where the
 * secret came URL-encoded, JSON-escaped or in base64.
 */
import { HIDDEN } from '../../nodes/shared/transport/secrets';
import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { SECRET, callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';
import { quotedForms } from '../harness/secretForms';

const s = setUpPerFile();

const PASSWORD = SANDBOX_CREDENTIALS.collection.password;
const logText = (call: WebhookCall) =>
	call.logs.map((line) => `${line.message} ${line.metadata}`).join('\n');

test('secrets echoed in unsigned fields of a genuine callback are hidden in the item', async () => {
	const h = await trigger(s);
	const body = callbackBody('SE-1', 100, 'completed');
	(body.data.transaction as Record<string, unknown>).note = `signed with ${SECRET}`;
	body.data.debug = { [PASSWORD]: 'login' };
	const call = await h.post(body);
	expect(call.statusCode).toBe(200);
	const item = call.result!.workflowData![0][0].json as {
		transaction: { note: string };
		raw: { data: Record<string, unknown> };
	};
	expect(item.transaction.note).toBe(`signed with ${HIDDEN}`);
	expect(item.raw.data.debug).toEqual({ [HIDDEN]: 'login' });
	expect(JSON.stringify(call.nextStepItems)).not.toContain(SECRET);
});

test('a secret in a status it refuses is hidden in the answer and the log line', async () => {
	const h = await trigger(s);
	const call = await h.post(callbackBody('SE-2', 100, SECRET));
	expect(call.statusCode).toBe(400);
	expect(call.body).toEqual({
		message: `Bad request: status "${HIDDEN}" is not one of pending, completed, cancelled`,
	});
	expect(logText(call)).not.toContain(SECRET);
	expect(logText(call)).toContain(HIDDEN);
});

test('a secret in an unsigned field it logs after verification is hidden', async () => {
	const h = await trigger(s);
	const body = callbackBody('SE-3', 100, 'completed');
	(body.data.transaction as Record<string, unknown>).reference_no = PASSWORD;
	const call = await h.post(body);
	expect(call.statusCode).toBe(401);
	expect(logText(call)).toContain(`the transaction copy says reference_no "${HIDDEN}"`);
});

test('secrets echoed URL-encoded, JSON-escaped or in base64 in unsigned fields are hidden in the item', async () => {
	const h = await trigger(s);
	const body = callbackBody('SE-4', 100, 'completed');
	const forms = [
		...quotedForms(PASSWORD, SANDBOX_CREDENTIALS.collection.username),
		...quotedForms(SECRET, ''),
	].filter(([name]) => !name.startsWith('Basic auth'));
	body.data.debug = forms.map(([, quoted]) => `seen ${quoted}`);
	const call = await h.post(body);
	expect(call.statusCode).toBe(200);
	const item = call.result!.workflowData![0][0].json as { raw: { data: { debug: string[] } } };
	expect(item.raw.data.debug).toEqual(forms.map(() => `seen ${HIDDEN}`));
});
